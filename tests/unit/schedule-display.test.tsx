import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { CalendarMonth } from '#app/components/calendar-month.tsx'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { EventPageFacts } from '#app/components/event-facts.tsx'
import { EventTile, type EventTileData } from '#app/components/event-tile.tsx'
import { ScheduleBanner } from '#app/components/schedule-status.tsx'
import { CARD_BUSINESS_FIELDS, customerCardData, type CardBusiness } from '#app/models/ads/customer-card.ts'
import { monthGrid } from '#app/models/calendar/calendar-month.ts'

/** The text a visitor reads: tags dropped, entities read, spaces collapsed. */
function textOf(html: string) {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
}

const tile: EventTileData = {
  eventID: 7,
  eventTitle: 'Friday Night Jazz Trio',
  eventDescription: 'Live standards.',
  category: ['Concert'],
  stillPhotoPath: '',
  businessName: 'Blue Door Cafe',
  date: '2026-11-28',
}

describe('the calendar tile', () => {
  test('a timed event: "Sat, Nov 28 · 7:30 PM – 10 PM", machine-readable with its start', () => {
    const html = renderToStaticMarkup(<EventTile event={{ ...tile, startTime: '19:30:00', endTime: '22:00:00' }} />)
    expect(textOf(html)).toContain('Sat, Nov 28 · 7:30 PM – 10 PM · Concert')
    expect(html).toContain('dateTime="2026-11-28T19:30"')
    expect(html).not.toContain('data-testid="schedule-status"')
  })

  test('an all-day event shows its date alone; after midnight says so', () => {
    expect(textOf(renderToStaticMarkup(<EventTile event={tile} />))).toContain('Sat, Nov 28 · Concert')
    const late = renderToStaticMarkup(<EventTile event={{ ...tile, startTime: '22:00', endTime: '01:00' }} />)
    expect(textOf(late)).toContain('Sat, Nov 28 · 10 PM – 1 AM (next day)')
  })

  test.each([
    ['cancelled', 'Cancelled'],
    ['postponed', 'Postponed'],
    ['sold_out', 'Sold out'],
  ])('%s is a text label, not a colour alone', (status, label) => {
    const html = renderToStaticMarkup(<EventTile event={{ ...tile, scheduleStatus: status }} />)
    expect(html).toMatch(new RegExp(`data-testid="schedule-status" data-status="${status}"[^>]*>${label}</span>`))
  })

  test('an unknown stored status shows no label; hostile text is escaped', () => {
    const html = renderToStaticMarkup(
      <EventTile event={{ ...tile, eventTitle: '<script>x</script>', scheduleStatus: 'rained_out' }} />,
    )
    expect(html).not.toContain('schedule-status')
    expect(html).not.toContain('<script>x')
  })

  test('under a date filter: "Advertised today" under the date', () => {
    const html = renderToStaticMarkup(<EventTile event={{ ...tile, advertisedText: 'Advertised today' }} />)
    expect(textOf(html)).toContain('Sat, Nov 28 · Concert Advertised today')
  })
})

const business = {
  ...(Object.fromEntries(CARD_BUSINESS_FIELDS.map((field) => [field, ''])) as unknown as CardBusiness),
  businessName: 'Blue Door Cafe',
  businessCity: 'Springfield',
}
const ad = {
  eventTitle: 'Comedy Night',
  eventDescription: 'Stand-up.',
  priceCents: 1500,
  ticketUrl: 'https://tickets.example.com/comedy',
  startTime: '19:30:00',
  endTime: '22:00:00',
}

describe('the customer card', () => {
  test('with a date: "Sat, Nov 28 · 7:30 PM – 10 PM"; without one, the times; the tickets link', () => {
    const card = customerCardData(business, ad)
    const dated = renderToStaticMarkup(<CustomerEventCard event={card} mode="public" date="2026-11-28" />)
    expect(textOf(dated)).toContain('Sat, Nov 28 · 7:30 PM – 10 PM')
    expect(dated).toContain('href="https://tickets.example.com/comedy"')
    const undated = renderToStaticMarkup(<CustomerEventCard event={card} mode="preview" />)
    expect(textOf(undated)).toContain('Comedy Night 7:30 PM – 10 PM')
  })

  test('sold out: labelled, "Sold out" in place of the tickets link', () => {
    const card = customerCardData(business, { ...ad, scheduleStatus: 'sold_out' })
    const html = renderToStaticMarkup(<CustomerEventCard event={card} mode="public" />)
    expect(html).toContain('data-status="sold_out"')
    expect(textOf(html)).toContain('Tickets: From $15 · Sold out')
    expect(html).not.toContain('tickets.example.com')
  })

  test.each(['cancelled', 'postponed'])('%s: labelled, no tickets link, the price kept', (status) => {
    const card = customerCardData(business, { ...ad, scheduleStatus: status, scheduleNote: 'Moved' })
    const html = renderToStaticMarkup(<CustomerEventCard event={card} mode="public" />)
    expect(html).toContain(`data-status="${status}"`)
    expect(html).not.toContain('tickets.example.com')
    expect(textOf(html)).not.toContain('Sold out')
  })
})

describe('the event page parts', () => {
  const facts = {
    dates: ['2026-11-28'],
    category: ['Concert'],
    address: '',
    mapUrl: null,
    icsPath: '/event/7.ics',
    googleCalendarUrl: 'https://calendar.google.com/calendar/render?x',
    shareUrl: 'mailto:?x',
  }

  test('the times beside the date; "Add to calendar" and Google Calendar only while the event is on', () => {
    const on = renderToStaticMarkup(<EventPageFacts {...facts} times={{ startTime: '19:30', endTime: '22:00' }} />)
    expect(textOf(on)).toContain('Date Nov 28, 2026 Time 7:30 PM – 10 PM')
    expect(textOf(on)).toContain('Add to calendar Google Calendar Share by email')
    const off = renderToStaticMarkup(<EventPageFacts {...facts} off />)
    expect(textOf(off)).not.toContain('Time')
    expect(off).not.toContain('Add to calendar')
    expect(off).not.toContain('calendar.google.com')
    expect(off).toContain('Share by email')
  })

  test('the banner says what happened and the note, escaped', () => {
    const cancelled = renderToStaticMarkup(<ScheduleBanner status="cancelled" note="Moved to the gym" />)
    expect(cancelled).toContain('role="status"')
    expect(textOf(cancelled)).toBe('This event is cancelled. Moved to the gym')
    expect(textOf(renderToStaticMarkup(<ScheduleBanner status="sold_out" note="" />))).toBe(
      'This event is sold out.',
    )
    expect(renderToStaticMarkup(<ScheduleBanner status="postponed" note="<b>soon</b>" />)).toContain(
      '&lt;b&gt;soon&lt;/b&gt;',
    )
    expect(renderToStaticMarkup(<ScheduleBanner status={null} note="x" />)).toBe('')
  })
})

describe('the month grid', () => {
  test('each event with its start time and status label; an all-day event without', () => {
    const html = renderToStaticMarkup(
      <CalendarMonth
        grid={monthGrid('2026-11')}
        days={[
          {
            date: '2026-11-28',
            total: 3,
            events: [
              { eventID: 1, eventTitle: 'Market', category: [] },
              { eventID: 2, eventTitle: 'Jazz', category: [], startTime: '19:30:00' },
              { eventID: 3, eventTitle: 'Fair', category: [], startTime: '10:00:00', scheduleStatus: 'cancelled' },
            ],
          },
        ]}
        dayHref={() => '/calendar'}
        prevHref={null}
        nextHref={null}
      />,
    )
    const day = textOf(html.slice(html.indexOf('data-date="2026-11-28"')))
    expect(day).toContain('28 Market 7:30 PM Jazz 10 AM Cancelled Fair')
    expect(html).toContain('dateTime="19:30"')
  })
})
