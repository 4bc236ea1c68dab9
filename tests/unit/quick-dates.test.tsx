import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { QuickDates } from '#app/components/quick-dates.tsx'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { calendarHref } from '#app/models/calendar/calendar-links.ts'
import { quickDateRanges, weekendFrom } from '#app/utils/quick-dates.ts'

describe('quick dates', () => {
  test.each([
    ['2026-11-23', '2026-11-28', '2026-11-29'], // Monday: the coming Saturday and Sunday
    ['2026-11-27', '2026-11-28', '2026-11-29'], // Friday
    ['2026-11-28', '2026-11-28', '2026-11-29'], // Saturday: today and tomorrow
    ['2026-11-29', '2026-11-29', '2026-11-29'], // Sunday: today only
    ['2026-12-31', '2027-01-02', '2027-01-03'], // Thursday across the year's end
  ])('on %s this weekend is %s to %s', (today, from, to) => {
    expect(weekendFrom(today)).toEqual({ from, to })
  })

  test('today, this weekend and the next 7 days (today included)', () => {
    expect(quickDateRanges('2026-11-25')).toEqual([
      { label: 'Today', from: '2026-11-25', to: '2026-11-25' },
      { label: 'This weekend', from: '2026-11-28', to: '2026-11-29' },
      { label: 'Next 7 days', from: '2026-11-25', to: '2026-12-01' },
    ])
  })
})

describe('<QuickDates>', () => {
  const render = (from: string | null, to: string | null) =>
    renderToStaticMarkup(
      <QuickDates
        filters={{ ...EMPTY_CALENDAR_FILTERS, keyword: 'jazz', from, to }}
        today="2026-11-29"
        hrefFor={calendarHref}
      />,
    )

  test('links keep the other filters and set From and To; the current choice is marked', () => {
    const html = render('2026-11-29', '2026-11-29')
    expect(html).toContain('href="/calendar?keyword=jazz&amp;from=2026-11-29&amp;to=2026-12-05"')
    // On a Sunday, Today and This weekend are the same window: both are marked.
    expect(html.match(/aria-current="true"/g)).toHaveLength(2)
    expect(render(null, null)).not.toContain('aria-current')
  })
})
