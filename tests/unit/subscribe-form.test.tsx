import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, expect, test, vi } from 'vitest'
import { SubscribeForm } from '#app/components/subscribe-form.tsx'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { savedSearchFilters } from '#app/models/subscriptions/subscription-rules.ts'

afterEach(() => vi.restoreAllMocks())

test('"Email me these events" carries every filter on screen, repeated ones included, as hidden fields', () => {
  const { filters } = normalizeCalendarFilters(
    new URLSearchParams(
      'keyword=jazz&category=Concert&free=1&access=step_free&access=captions&from=2026-12-01',
    ),
  )
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const html = renderToStaticMarkup(<SubscribeForm filters={filters} />)
  // React reports two fields drawn under one key (a repeated filter) as an error.
  expect(errors).not.toHaveBeenCalled()

  const posted = new URLSearchParams()
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    if (name !== 'kind') posted.append(name!, value!)
  expect(posted.get('category')).toBe('Concert')
  expect(posted.getAll('access')).toEqual(['step_free', 'captions'])
  // What the server reads back is the saved search: the same filters, dates turned into "upcoming".
  expect(savedSearchFilters(normalizeCalendarFilters(posted).filters)).toEqual(savedSearchFilters(filters))
  expect(posted.has('from')).toBe(false)
})
