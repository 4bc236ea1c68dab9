import { describe, expect, test } from 'vitest'
import { eventPagePath, eventSlug, parseEventAddress } from '#app/models/ads/event-address.ts'

describe('eventSlug', () => {
  test('lower-case words of the title joined by hyphens, accents dropped', () => {
    expect(eventSlug('Friday Night Jazz Trio')).toBe('friday-night-jazz-trio')
    expect(eventSlug('  Crêpes & Café — ÉTÉ 2026!  ')).toBe('crepes-cafe-ete-2026')
    expect(eventSlug('<script>alert(1)</script>')).toBe('script-alert-1-script')
  })

  test('at most 60 characters, never ending in a hyphen', () => {
    const slug = eventSlug('The longest running community supper in the whole county with music and dancing')
    expect(slug).toBe('the-longest-running-community-supper-in-the-whole-county-wit')
    expect(eventSlug('The longest running community supper in the whole county ab, c')).toBe(
      'the-longest-running-community-supper-in-the-whole-county-ab',
    )
    expect(eventSlug('a'.repeat(90))).toBe('a'.repeat(60))
  })

  test('a title without Latin letters or digits still has an address', () => {
    expect(eventSlug('夏祭り')).toBe('event')
    expect(eventSlug('!!!')).toBe('event')
    expect(eventPagePath({ eventID: 7, eventTitle: '🎉' })).toBe('/event/7-event')
  })
})

describe('parseEventAddress', () => {
  test('an id alone is the preview; an id with a slug the public address', () => {
    expect(parseEventAddress('12')).toEqual({ eventID: 12, slug: null })
    expect(parseEventAddress('12-friday-night')).toEqual({ eventID: 12, slug: 'friday-night' })
    expect(parseEventAddress('12-Friday-Night')).toEqual({ eventID: 12, slug: 'friday-night' })
  })

  test('anything else is no event', () => {
    for (const segment of [
      undefined,
      '',
      '0',
      '-1',
      '12-',
      '12_x',
      '12-a b',
      '99999999999',
      '2147483648-x',
      'x-12',
      '12-%2e%2e',
    ]) {
      expect(parseEventAddress(segment), String(segment)).toBeNull()
    }
  })

  test('every address made is read back as itself', () => {
    for (const title of ['Jazz', 'Crêpes & Café', '夏祭り', 'x'.repeat(300)]) {
      const path = eventPagePath({ eventID: 42, eventTitle: title })
      const parsed = parseEventAddress(path.slice('/event/'.length))
      expect(parsed?.eventID).toBe(42)
      expect(`/event/42-${parsed?.slug}`).toBe(path)
    }
  })
})
