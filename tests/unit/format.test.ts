import { describe, expect, test } from 'vitest'
import {
  externalUrl,
  formatDatesLine,
  formatPhone,
  formatShortDate,
  mediaSrc,
  videoTypeFromUrl,
} from '#app/utils/format.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

describe('formatPhone', () => {
  test.each([
    ['2175550148', '(217) 555-0148'],
    ['217-555-0148', '(217) 555-0148'],
    ['(217) 555 0148', '(217) 555-0148'],
    ['217.555.0148', '(217) 555-0148'],
  ])('%j has exactly 10 digits → %j', (stored, shown) => {
    expect(formatPhone(stored)).toBe(shown)
  })

  test.each([
    ['217555014', '9 digits'],
    ['12175550148', '11 digits'],
    ['+1 217 555 0148', '11 digits with a country code'],
    ['217-555-CALL', 'letters'],
    ['217-555-0148 ext', 'letters around 10 digits'],
    ['', 'empty'],
  ])('%j (%s) is shown as stored', (stored) => {
    expect(formatPhone(stored)).toBe(stored)
  })

  test('a missing phone is empty', () => {
    expect(formatPhone(null)).toBe('')
    expect(formatPhone(undefined)).toBe('')
  })
})

describe('externalUrl', () => {
  test('keeps http and https links as typed', () => {
    expect(externalUrl('https://www.facebook.com/example')).toBe('https://www.facebook.com/example')
    expect(externalUrl('http://example.com')).toBe('http://example.com')
  })

  test('adds https:// when no scheme was typed', () => {
    expect(externalUrl('instagram.com/example')).toBe('https://instagram.com/example')
  })

  test.each([
    '',
    '   ',
    null,
    undefined,
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,hi',
    'mailto:a@b.c',
  ])('%j gives no link', (value) => {
    expect(externalUrl(value)).toBeNull()
  })
})

describe('mediaSrc', () => {
  test('serves stored media by the last segment of its path', () => {
    expect(mediaSrc('images/2026-05/2026-05-01_12.webp')).toBe('/api/media/2026-05-01_12.webp')
    expect(mediaSrc('/uploads/party.jpg')).toBe('/api/media/party.jpg')
  })

  test('keeps a stored /api/media/ URL whole (its cache version included)', () => {
    expect(mediaSrc('/api/media/2026-05-01_12.webp?v=3')).toBe('/api/media/2026-05-01_12.webp?v=3')
  })

  test('no path, no source', () => {
    expect(mediaSrc('')).toBeNull()
    expect(mediaSrc(null)).toBeNull()
  })
})

test.each([
  ['/api/media/a.mp4', 'video/mp4'],
  ['/api/media/a.WEBM', 'video/webm'],
  ['/api/media/a.ogv?v=2', 'video/ogg'],
  ['/api/media/a.ogg', 'video/ogg'],
  ['/api/media/a', undefined],
])('videoTypeFromUrl(%j) = %j', (url, type) => {
  expect(videoTypeFromUrl(url)).toBe(type)
})

describe('dates line', () => {
  test('short dates', () => {
    expect(formatShortDate('2026-11-24')).toBe('Nov 24')
    expect(formatShortDate('2026-01-05', { withYear: true })).toBe('Jan 5, 2026')
    expect(formatShortDate('2026-02-30')).toBe('Invalid date')
    expect(formatShortDate('tomorrow')).toBe('Invalid date')
  })

  test('up to three dates are listed in order', () => {
    expect(formatDatesLine(['2026-11-26', '2026-11-24', '2026-11-25'])).toBe('Nov 24, Nov 25, Nov 26')
  })

  test('more dates read as a range with a count', () => {
    const dates = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-30', '2026-12-05']
    expect(formatDatesLine(dates)).toBe('Nov 24 – Dec 5 (5 dates)')
  })

  test('years are shown when the dates span two years', () => {
    expect(formatDatesLine(['2026-12-31', '2027-01-01'])).toBe('Dec 31, 2026, Jan 1, 2027')
  })

  test('the single event date is used when there are no display dates', () => {
    expect(formatDatesLine([], '2026-07-04')).toBe('Jul 4')
  })

  test('no dates at all, or only the unset marker', () => {
    expect(formatDatesLine([])).toBe('No dates')
    expect(formatDatesLine(null, '1989-01-01')).toBe('No dates')
  })

  test('an unparsable date reads Invalid date', () => {
    expect(formatDatesLine(['not-a-date'])).toBe('Invalid date')
    expect(formatDatesLine(['2026-11-24', '2026-13-01'])).toBe('Nov 24, Invalid date')
  })
})

describe('parseId', () => {
  test.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
  ])('%j → %i', (value, id) => {
    expect(parseId(value)).toBe(id)
  })

  test.each(['', '0', 'abc', '12abc', '1.5', '-3', ' 4', '2147483648', '99999999999', undefined])(
    '%j → null',
    (value) => {
      expect(parseId(value)).toBeNull()
    },
  )
})
