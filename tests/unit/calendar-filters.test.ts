import { describe, expect, test } from 'vitest'
import { OPEN_ENDED_DATE_LIMIT } from '#app/constants.ts'
import {
  activeFilters,
  calendarFilterErrors,
  calendarSearchParams,
  dateWindow,
  EMPTY_CALENDAR_FILTERS,
  escapeLikePattern,
  hasActiveFilters,
  MAX_PAGE,
  nearFilterErrors,
  normalizeCalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'

const normalize = (query: string) => normalizeCalendarFilters(new URLSearchParams(query))

describe('normalizeCalendarFilters', () => {
  test('no parameters: no filters, page 1, no notices', () => {
    expect(normalize('')).toEqual({ filters: EMPTY_CALENDAR_FILTERS, page: 1, notices: [] })
  })

  test('trims every text filter', () => {
    const { filters } = normalize('keyword=%20%20Jazz%20Night%20&category=%20Concert%20&zip=%2062704%20')
    expect(filters).toMatchObject({ keyword: 'Jazz Night', category: 'Concert', zip: '62704' })
  })

  test.each(['All', 'all', ' ALL ', ''])('category %j means no category filter', (category) => {
    expect(normalize(`category=${encodeURIComponent(category)}`).filters.category).toBe('')
  })

  test('a category with an ampersand survives the query string', () => {
    expect(normalize('category=Food+%26+Drink').filters.category).toBe('Food & Drink')
  })

  test('valid dates are kept as given', () => {
    expect(normalize('from=2026-03-01&to=2026-03-31').filters).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-31',
    })
  })

  test('From after To is swapped', () => {
    expect(normalize('from=2026-04-10&to=2026-04-01').filters).toMatchObject({
      from: '2026-04-01',
      to: '2026-04-10',
    })
  })

  test('From equal to To is a one-day window', () => {
    expect(normalize('from=2026-04-10&to=2026-04-10').filters).toMatchObject({
      from: '2026-04-10',
      to: '2026-04-10',
    })
  })

  test('an invalid date is ignored with a notice naming the field', () => {
    const result = normalize('from=2026-02-30&to=2026-03-05')
    expect(result.filters).toMatchObject({ from: null, to: '2026-03-05' })
    expect(result.notices).toEqual([expect.stringContaining('Date(s) From')])
    expect(result.notices[0]).toContain('2026-02-30')
  })

  test.each(['yesterday', '2026-13-01', '03/05/2026', '2026-3-5', '20260305'])(
    '%j is not a date',
    (value) => {
      const result = normalize(`to=${encodeURIComponent(value)}`)
      expect(result.filters.to).toBeNull()
      expect(result.notices).toEqual([expect.stringContaining('To')])
    },
  )

  test('both dates invalid: two notices, no date filter', () => {
    const result = normalize('from=x&to=y')
    expect(result.filters).toMatchObject({ from: null, to: null })
    expect(result.notices).toHaveLength(2)
  })

  test('a blank date is simply not set (no notice)', () => {
    expect(normalize('from=&to=%20')).toMatchObject({ filters: { from: null, to: null }, notices: [] })
  })

  test('a date after the open-ended limit means the limit', () => {
    expect(normalize('to=2300-01-01').filters.to).toBe(OPEN_ENDED_DATE_LIMIT)
  })

  test('swap happens after invalid dates are dropped', () => {
    expect(normalize('from=2026-05-01&to=bogus').filters).toMatchObject({ from: '2026-05-01', to: null })
  })

  test('overlong text is cut', () => {
    const { filters } = normalize(`keyword=${'a'.repeat(500)}&zip=${'9'.repeat(80)}`)
    expect(filters.keyword).toHaveLength(100)
    expect(filters.zip).toHaveLength(50)
  })

  test.each([
    ['', 1],
    ['page=3', 3],
    ['page=0', 1],
    ['page=-2', 1],
    ['page=abc', 1],
    ['page=2.5', 1],
    [`page=${MAX_PAGE + 50}`, MAX_PAGE],
  ])('%j → page %i', (query, page) => {
    expect(normalize(query).page).toBe(page)
  })
})

describe('dateWindow', () => {
  test('no dates: no window', () => {
    expect(dateWindow({ from: null, to: null })).toBeNull()
  })

  test('missing To is open-ended up to the limit', () => {
    expect(dateWindow({ from: '2026-01-01', to: null })).toEqual({
      from: '2026-01-01',
      to: OPEN_ENDED_DATE_LIMIT,
    })
  })

  test('missing From is open-ended', () => {
    expect(dateWindow({ from: null, to: '2026-01-31' })).toEqual({ from: null, to: '2026-01-31' })
  })
})

describe('calendarSearchParams', () => {
  test('round-trips through normalize', () => {
    const filters = {
      keyword: 'jazz',
      category: 'Food & Drink',
      zip: '627',
      from: '2026-01-01',
      to: '2026-01-31',
      near: '62704',
      radius: 25 as const,
      sort: 'nearest' as const,
      free: true,
      online: false,
      access: ['step_free' as const, 'captions' as const],
      hideCancelled: true,
    }
    const params = calendarSearchParams(filters, 2)
    expect(params.get('hideCancelled')).toBe('1')
    expect(normalizeCalendarFilters(params)).toEqual({ filters, page: 2, notices: [] })
  })

  test('leaves out what is not set, and page 1', () => {
    expect(calendarSearchParams({ ...EMPTY_CALENDAR_FILTERS, zip: '627' }).toString()).toBe('zip=627')
  })
})

test('hasActiveFilters', () => {
  expect(hasActiveFilters(EMPTY_CALENDAR_FILTERS)).toBe(false)
  expect(hasActiveFilters({ ...EMPTY_CALENDAR_FILTERS, to: '2026-01-01' })).toBe(true)
})

test('activeFilters: each set filter in the form’s order, with the filters left when it is removed', () => {
  expect(activeFilters(EMPTY_CALENDAR_FILTERS)).toEqual([])
  const filters = {
    ...EMPTY_CALENDAR_FILTERS,
    keyword: 'jazz',
    category: 'Concert',
    near: '62704',
    radius: 25 as const,
    sort: 'nearest' as const,
    from: '2026-12-01',
  }
  const active = activeFilters(filters)
  expect(active.map((a) => a.label)).toEqual([
    'Keyword “jazz”',
    'Concert',
    'within 25 mi of 62704, nearest first',
    'from Dec 1, 2026',
  ])
  expect(active[0]!.without).toEqual({ ...filters, keyword: '' })
  expect(active[2]!.without).toEqual({ ...filters, near: '', radius: 10, sort: 'soonest' })
  expect(active[3]!.without).toEqual({ ...filters, from: null })
})

test('escapeLikePattern makes wildcards literal', () => {
  expect(escapeLikePattern('50%_off\\')).toBe('50\\%\\_off\\\\')
})

describe('the distance filter', () => {
  test('a ZIP or ZIP+4 with a radius and nearest-first order', () => {
    expect(normalize('near=%2062704-1234%20&radius=50&sort=nearest')).toEqual({
      filters: { ...EMPTY_CALENDAR_FILTERS, near: '62704', radius: 50, sort: 'nearest' },
      page: 1,
      notices: [],
    })
  })

  test('the radius defaults to 10 miles; without a ZIP radius and order mean nothing', () => {
    expect(normalize('near=62704').filters).toMatchObject({ near: '62704', radius: 10, sort: 'soonest' })
    expect(normalize('radius=50&sort=nearest').filters).toEqual(EMPTY_CALENDAR_FILTERS)
  })

  test('a bad ZIP is ignored and a bad radius replaced, each with a notice', () => {
    const badZip = normalize('near=6270&radius=25')
    expect(badZip.filters.near).toBe('')
    expect(badZip.notices).toEqual(['Near: "6270" is not a ZIP code (5 digits), so it was ignored.'])
    const badRadius = normalize('near=62704&radius=7')
    expect(badRadius.filters).toMatchObject({ near: '62704', radius: 10 })
    expect(badRadius.notices).toEqual(['Within: 5, 10, 25 or 50 miles can be chosen, so 10 miles was used.'])
  })

  test.each([
    ['near=abc', 'near: "abc" is not a ZIP code (5 digits)'],
    ['near=62704&radius=7', 'radius must be 5, 10, 25 or 50 (miles)'],
    ['near=62704&radius=ten', 'radius must be 5, 10, 25 or 50 (miles)'],
    ['near=62704&sort=farthest', 'sort must be soonest or nearest'],
    ['sort=nearest', 'sort=nearest needs near (a ZIP code)'],
  ])('the API refuses %s', (query, error) => {
    expect(calendarFilterErrors(new URLSearchParams(query))).toEqual([error])
    expect(nearFilterErrors(new URLSearchParams(query))).toEqual([error])
  })

  test('is an active filter and is written into links', () => {
    const filters = { ...EMPTY_CALENDAR_FILTERS, near: '62704', radius: 5 as const }
    expect(hasActiveFilters(filters)).toBe(true)
    expect(calendarSearchParams(filters).toString()).toBe('near=62704&radius=5')
  })
})
