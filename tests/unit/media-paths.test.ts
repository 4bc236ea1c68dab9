import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import {
  mediaFileName,
  mediaKey,
  mediaUrlFromKey,
  parseMediaFileName,
  photoSrcSet,
  photoVariantKey,
} from '#app/utils/media-types.ts'
import { parseRange } from '#app/services/http/media-response.server.ts'
import { localMediaStorage } from '#app/services/media/media-storage-local.server.ts'
import { mediaRoot } from '#app/services/media/media-storage.server.ts'
import { mediaDate } from '#app/services/media/media.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `media-paths-${process.pid}`)

beforeAll(() => {
  process.env.DATA_DIR = dataDir
  resetEnvCache()
})
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

function writeScratch(content: string) {
  const file = path.join(dataDir, `scratch-${Math.random().toString(36).slice(2)}`)
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, content)
  return file
}

describe('key convention: images|videos/yyyy-mm/yyyy-mm-dd_eventID.ext', () => {
  test('photo and video keys', () => {
    expect(mediaKey({ kind: 'photo', date: '2024-05-01', id: 12, ext: 'webp' })).toBe(
      'images/2024-05/2024-05-01_12.webp',
    )
    expect(mediaKey({ kind: 'video', date: '2024-12-31', id: '7', ext: 'mp4' })).toBe(
      'videos/2024-12/2024-12-31_7.mp4',
    )
    expect(mediaKey({ kind: 'video', date: '2024-01-09', id: 3, ext: 'webm' })).toBe(
      'videos/2024-01/2024-01-09_3.webm',
    )
  })

  test('the fixed sample date of the upload test page', () => {
    expect(mediaKey({ kind: 'photo', date: '2000-01-01', id: 42, ext: 'webp' })).toBe(
      'images/2000-01/2000-01-01_42.webp',
    )
  })

  test.each([
    [{ kind: 'photo' as const, date: '2024-5-1', id: 1, ext: 'webp' }],
    [{ kind: 'photo' as const, date: '2024-02-30', id: 1, ext: 'webp' }],
    [{ kind: 'photo' as const, date: '2024-05-01', id: 0, ext: 'webp' }],
    [{ kind: 'photo' as const, date: '2024-05-01', id: '1/../../x', ext: 'webp' }],
    [{ kind: 'photo' as const, date: '2024-05-01', id: 1, ext: 'mp4' }],
    [{ kind: 'video' as const, date: '2024-05-01', id: 1, ext: 'exe' }],
  ])('refuses %j', (input) => {
    expect(() => mediaKey(input)).toThrow()
  })

  test('srcset copies and URLs', () => {
    const key = 'images/2024-05/2024-05-01_12.webp'
    expect(photoVariantKey(key, 480)).toBe('images/2024-05/2024-05-01_12-480w.webp')
    expect(mediaFileName(key)).toBe('2024-05-01_12.webp')
    expect(mediaUrlFromKey(key)).toBe('/api/media/2024-05-01_12.webp')
    expect(mediaFileName('/api/media/2024-05-01_12.webp?v=abc')).toBe('2024-05-01_12.webp')
  })

  test('photoSrcSet lists the narrower copies and the main file, keeping the version', () => {
    expect(photoSrcSet('/api/media/2024-05-01_12.webp?v=abc')).toBe(
      '/api/media/2024-05-01_12-480w.webp?v=abc 480w, /api/media/2024-05-01_12-960w.webp?v=abc 960w, ' +
        '/api/media/2024-05-01_12.webp?v=abc 1600w',
    )
    expect(photoSrcSet('/api/media/2024-05-01_12.mp4')).toBe('')
    expect(photoSrcSet('/api/media/2024-05-01_12-480w.webp')).toBe('')
    expect(photoSrcSet('https://example.com/photo.webp')).toBe('')
  })

  test('a Date is placed on its day in the platform time zone (America/New_York in tests)', () => {
    expect(mediaDate(new Date('2024-05-01T03:00:00Z'))).toBe('2024-04-30')
    expect(mediaDate(new Date('2024-05-01T12:00:00Z'))).toBe('2024-05-01')
    expect(mediaDate('2024-05-01')).toBe('2024-05-01')
    expect(() => mediaDate('not a date')).toThrow()
  })
})

describe('parseMediaFileName', () => {
  test('maps names back to their folder from the extension and yyyy-mm from the date', async () => {
    const root = mediaRoot()
    expect(root).toBe(path.resolve(dataDir, 'media'))
    expect(parseMediaFileName('2024-05-01_12.webp')).toMatchObject({
      key: 'images/2024-05/2024-05-01_12.webp',
      contentType: 'image/webp',
      kind: 'photo',
    })
    expect(parseMediaFileName('2024-05-01_12-960w.webp')?.key).toBe('images/2024-05/2024-05-01_12-960w.webp')
    await localMediaStorage(root).put(
      'images/2024-05/2024-05-01_12.webp',
      { file: writeScratch('x') },
      'image/webp',
    )
    expect(fs.readFileSync(path.join(root, 'images/2024-05/2024-05-01_12.webp'), 'utf8')).toBe('x')
    expect(parseMediaFileName('2023-11-30_5.jpg')?.contentType).toBe('image/jpeg')
    expect(parseMediaFileName('2024-05-01_12.mp4')).toMatchObject({
      key: 'videos/2024-05/2024-05-01_12.mp4',
      contentType: 'video/mp4',
    })
    expect(parseMediaFileName('2024-05-01_12.webm')?.contentType).toBe('video/webm')
    expect(parseMediaFileName('2024-05-01_12.ogv')?.contentType).toBe('video/ogg')
    expect(parseMediaFileName('2024-05-01_12.ogg')?.key).toBe('videos/2024-05/2024-05-01_12.ogg')
    expect(parseMediaFileName('2000-01-01_42.webp')?.key).toBe('images/2000-01/2000-01-01_42.webp')
  })

  test("a revision's media: a name of its own beside the ad's, its srcset copies belonging to it", () => {
    expect(mediaKey({ kind: 'photo', date: '2024-05-01', id: 12, ext: 'webp', revision: 3 })).toBe(
      'images/2024-05/2024-05-01_12-r3.webp',
    )
    expect(parseMediaFileName('2024-05-01_12-r3.webp')).toMatchObject({
      key: 'images/2024-05/2024-05-01_12-r3.webp',
      id: '12',
      revision: '3',
      baseName: '2024-05-01_12-r3.webp',
    })
    expect(parseMediaFileName('2024-05-01_12-r3-480w.webp')).toMatchObject({
      id: '12',
      revision: '3',
      width: 480,
      baseName: '2024-05-01_12-r3.webp',
    })
    expect(parseMediaFileName('2024-05-01_12.mp4')).toMatchObject({
      revision: undefined,
      baseName: '2024-05-01_12.mp4',
    })
    for (const bad of [
      '2024-05-01_12-r0.webp',
      '2024-05-01_12-r.webp',
      '2024-05-01_12-rx3.webp',
      '2024-05-01_12-480w-r3.webp',
    ]) {
      expect(parseMediaFileName(bad), bad).toBeNull()
    }
    expect(() => mediaKey({ kind: 'photo', date: '2024-05-01', id: 12, ext: 'webp', revision: 0 })).toThrow()
  })

  test.each([
    '..',
    '../..',
    '../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '%2e%2e%2f2024-05-01_1.webp',
    '2024-05-01_1.webp%2F..',
    'images%2F2024-05%2F2024-05-01_1.webp',
    'images/2024-05/2024-05-01_1.webp',
    '2024-05-01_1.webp/../../../pg',
    '2024-05-01_1.webp\0',
    '2024-05-01_1\0.webp',
    '2024-05-01_1.webp%00.png',
    '/etc/passwd',
    '/2024-05-01_1.webp',
    'C:\\Windows\\win.ini',
    '..\\2024-05-01_1.webp',
    '',
    '.webp',
    '2024-05-01_1.exe',
    '2024-05-01_1.html',
    '2024-05-01_1.svg',
    '2024-05-01_1.WEBP',
    '2024-05-01_1.webp.exe',
    '2024-05-01_1',
    '2024-13-01_1.webp',
    '2024-02-30_1.webp',
    '2024-05-01_0.webp',
    '2024-05-01_01.webp',
    '2024-05-01_-1.webp',
    '2024-05-01_1234567890123.webp',
    '2024-05-01_1-100w.webp',
    '2024-05-01_1-480w.mp4',
    ' 2024-05-01_1.webp',
    '2024-05-01_1.webp ',
    '2024-05-01_1.webp\n',
  ])('refuses %j', (name) => {
    expect(parseMediaFileName(name)).toBeNull()
  })

  test.each([
    '../pg/x.webp',
    'images/2024-05/../../../pg/x.webp',
    '/etc/passwd',
    'images/x.webp',
    'tmp/../x.webp',
  ])('the local backend refuses the key %j', async (key) => {
    await expect(localMediaStorage(mediaRoot()).head(key)).rejects.toThrow('Not a media storage key')
  })
})

describe('parseRange', () => {
  const size = 1000
  test.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-50', { start: 950, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
  ])('%s', (header, range) => {
    expect(parseRange(header, size)).toEqual(range)
  })

  test.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('%s is unsatisfiable', (header) => {
    expect(parseRange(header, size)).toBe('unsatisfiable')
  })

  test.each([null, '', 'bytes=', 'bytes=-', 'bytes=5-1', 'items=0-1', 'bytes=0-1,5-9', 'bytes=a-b'])(
    '%j is ignored (whole file)',
    (header) => {
      expect(parseRange(header, size)).toBeNull()
    },
  )
})
