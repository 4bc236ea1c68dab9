import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom/server'
import { describe, expect, test } from 'vitest'
import { EventsGallery, type GalleryEvent } from '#app/components/events-gallery.tsx'

function galleryEvent(eventID: number, overrides: Partial<GalleryEvent>): GalleryEvent {
  return {
    eventID,
    eventTitle: `Event ${eventID}`,
    stillPhotoPath: '',
    showAdOnDates: [],
    eventDate: '1989-01-01',
    clicks: 0,
    bounces: 0,
    statusLabel: 'Awaiting payment',
    statusClass: 'bg-brand-100 text-brand-700',
    categoryNeeded: false,
    receiptUrl: null,
    receiptHref: null,
    reviewReason: null,
    editNote: null,
    resubmitHref: null,
    ...overrides,
  }
}

/** The gallery as the dashboard renders it, and the dates line of each card (in card order). */
function renderDatesLines(events: GalleryEvent[]) {
  const html = renderToString(
    <StaticRouter location="/dashboard">
      <EventsGallery events={events} />
    </StaticRouter>,
  )
  const lines = [...html.matchAll(/data-testid="event-dates"[^>]*>([^<]*)</g)].map((m) => m[1])
  return { html, lines }
}

describe('the dashboard gallery’s dates line', () => {
  test('"No dates" for an ad without display dates or an event date, "Invalid date" for a date that is not one', () => {
    const { html, lines } = renderDatesLines([
      galleryEvent(1, { showAdOnDates: [], eventDate: '1989-01-01' }),
      galleryEvent(2, { showAdOnDates: ['2026-13-45'] }),
      galleryEvent(3, { showAdOnDates: ['2026-11-24', '2026-02-30'] }),
      galleryEvent(4, { showAdOnDates: [], eventDate: 'not-a-date' }),
      galleryEvent(5, { showAdOnDates: ['2026-11-24', '2026-11-25'] }),
      galleryEvent(6, { showAdOnDates: [], eventDate: '2026-07-04' }),
    ])
    expect(lines).toEqual([
      'No dates',
      'Invalid date',
      'Nov 24, Invalid date',
      'Invalid date',
      'Nov 24, Nov 25',
      'Jul 4',
    ])
    expect(html).toContain('>No dates<')
    expect(html).toContain('>Invalid date<')
  })
})

test('a draft without a category says it needs one before checkout, linking to its edit form', () => {
  const html = renderToString(
    <StaticRouter location="/dashboard">
      <EventsGallery events={[galleryEvent(7, { categoryNeeded: true }), galleryEvent(8, {})]} />
    </StaticRouter>,
  )
  expect(html.match(/Needs a category before checkout/g)).toHaveLength(1)
  expect(html).toContain('href="/dashboard/events/7/edit"')
})
