import { describe, expect, test } from 'vitest'
import {
  parseShareImageName,
  shareImagePath,
  shareImagePaths,
  shareImageVersion,
} from '#app/models/ads/share-images.ts'
import { titleCardSvg } from '#app/services/media/share-image-drawing.server.ts'

const withPhoto = {
  eventID: 7,
  eventTitle: 'Jazz Night',
  stillPhotoPath: '/api/media/2026-01-01_7.webp?v=abc',
}
const withoutPhoto = { eventID: 8, eventTitle: 'Jazz Night', stillPhotoPath: '' }

describe('share image names', () => {
  test('the version follows what the images show: the photo when there is one, else the title', () => {
    expect(shareImageVersion(withPhoto)).toMatch(/^[0-9a-f]{16}$/)
    expect(shareImageVersion({ ...withPhoto, eventTitle: 'Other' })).toBe(shareImageVersion(withPhoto))
    expect(
      shareImageVersion({ ...withPhoto, stillPhotoPath: '/api/media/2026-01-01_7.webp?v=abd' }),
    ).not.toBe(shareImageVersion(withPhoto))
    expect(shareImageVersion({ ...withoutPhoto, eventTitle: 'Jazz Night!' })).not.toBe(
      shareImageVersion(withoutPhoto),
    )
    // Not a stored photo (a video, a srcset copy, nothing): the title card.
    for (const stillPhotoPath of ['/api/media/2026-01-01_8.mp4', '/api/media/2026-01-01_8-480w.webp', null])
      expect(shareImageVersion({ ...withoutPhoto, stillPhotoPath })).toBe(shareImageVersion(withoutPhoto))
  })

  test('the card and, for a photo only, the structured data crops', () => {
    const version = shareImageVersion(withPhoto)
    expect(shareImagePaths(withPhoto)).toEqual({
      card: `/event/7/share/card.jpg?v=${version}`,
      structuredData: ['16x9', '4x3', '1x1'].map((kind) => `/event/7/share/${kind}.jpg?v=${version}`),
    })
    expect(shareImagePaths(withoutPhoto)).toEqual({
      card: shareImagePath(withoutPhoto, 'card'),
      structuredData: [],
    })
  })

  test('only the kinds there are, as .jpg', () => {
    expect(parseShareImageName('card.jpg')).toBe('card')
    expect(parseShareImageName('16x9.jpg')).toBe('16x9')
    for (const name of ['card.png', 'poster.jpg', 'constructor.jpg', '../card.jpg', '', undefined])
      expect(parseShareImageName(name)).toBeNull()
  })
})

const lines = (svg: string) => [...svg.matchAll(/<tspan [^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]!)

describe('the title card', () => {
  test('escapes the title as XML and drops what XML cannot hold', () => {
    const svg = titleCardSvg('Tom & Jerry <script>alert("x")</script>\u0007', { width: 1200, height: 630 })
    expect(svg).not.toContain('<script>')
    expect(lines(svg).join(' ')).toMatch(
      /^Tom &#38; Jerry ?&#60;script&#62;alert\(&#34;x&#34; ?\)&#60;\/script&#62;$/,
    )
    expect(svg).not.toContain('\u0007')
  })

  test('wraps a long title into lines that fit, ending the last with an ellipsis when it is too long', () => {
    expect(lines(titleCardSvg('Jazz Night', { width: 1200, height: 630 }))).toEqual(['Jazz Night'])
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')
    const wrapped = lines(titleCardSvg(long, { width: 1200, height: 630 }))
    expect(wrapped.length).toBeGreaterThan(1)
    expect(wrapped.length).toBeLessThanOrEqual(8)
    expect(wrapped.at(-1)).toMatch(/…$/)
    expect(wrapped.join(' ').replace('…', '')).toBe(long.slice(0, wrapped.join(' ').length - 1).trimEnd())
    const unbroken = lines(titleCardSvg('x'.repeat(80), { width: 1200, height: 630 }))
    expect(unbroken.join('')).toBe('x'.repeat(80))
  })
})
