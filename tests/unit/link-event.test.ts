import { describe, expect, test } from 'vitest'
import { DESCRIPTION_MAX, MAX_DISPLAY_DATES } from '#app/constants.ts'
import { eventFromDocument, parseIsoMoment, placeFromText } from '#app/models/ads/link-event.ts'
import { filledFormValues, linkEventFill } from '#app/models/ads/link-event-form.ts'
import { lastBookableDate } from '#app/models/ads/event-rules.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { eventPageBodies, eventPageDates } from '#tests/support/event-pages.ts'

const ORIGIN = 'http://pages.test:8080'
const ZONE = 'America/New_York'
const { today, start, second } = eventPageDates()
const read = (path: string, text = eventPageBodies(ORIGIN)[path]!) =>
  eventFromDocument(
    { kind: path.endsWith('.ics') ? 'icalendar' : 'html', text, url: new URL(path, ORIGIN) },
    { timeZone: ZONE, today },
  )

describe('reading the event of a document', () => {
  test('schema.org Event JSON-LD (a subtype, inside @graph)', () => {
    expect(read('/json-ld.html')).toEqual({
      sources: ['json-ld'],
      event: {
        title: 'Jazz on the River',
        description: 'An evening of live jazz & food trucks by the water.',
        start: { date: start, time: '19:30' },
        end: { date: start, time: '22:00' },
        place: {
          name: 'Riverside Park',
          street: '200 River Rd',
          city: 'Springfield',
          region: 'IL',
          zip: '62701',
        },
        ticketUrl: 'https://tickets.example.com/jazz',
        imageUrl: `${ORIGIN}/photo.png`,
      },
    })
  })

  test('h-event microformats, with a relative photo and an h-card place', () => {
    expect(read('/h-event.html')).toEqual({
      sources: ['h-event'],
      event: {
        title: 'Friends of the Library Book Sale',
        description: 'Thousands of used books, a dollar each.',
        start: { date: start, time: '09:00' },
        end: { date: second, time: '16:00' },
        place: { name: 'Main Library', street: '12 Elm St', city: 'Springfield', region: 'IL', zip: '62704' },
        ticketUrl: 'https://library.example.org/book-sale',
        imageUrl: `${ORIGIN}/photo.png`,
      },
    })
  })

  test('Open Graph tags only: a title, a description and a photo', () => {
    expect(read('/open-graph.html')).toEqual({
      sources: ['open-graph'],
      event: {
        title: 'Pancake Breakfast',
        description: 'Fire station pancake breakfast & open house.',
        imageUrl: `${ORIGIN}/photo.png`,
      },
    })
  })

  test('an .ics file: its first event not yet past, its TZID time told in the platform zone', () => {
    expect(read('/event.ics')).toEqual({
      sources: ['icalendar'],
      event: {
        title: 'Town Hall: Parks Plan',
        description: 'Come hear the plan for the new parks, and say what you think.',
        // 19:00 in Chicago is 20:00 in New York.
        start: { date: start, time: '20:00' },
        end: { date: start, time: '21:30' },
        place: { name: 'City Hall', street: '1 Main St', city: 'Springfield', region: 'IL', zip: '62701' },
        ticketUrl: 'https://city.example.gov/town-hall',
        imageUrl: `${ORIGIN}/photo.png`,
      },
    })
  })

  test('each field from the first format that has it; a page with none of them describes no event', () => {
    const page = `<!doctype html><html><head>
      <meta property="og:title" content="OG title"><meta property="og:image" content="https://cdn.example.com/a.jpg">
      <script type="application/ld+json">{"@type":"Event","name":"LD title","startDate":"${start}"}</script>
      <script type="application/ld+json">{ broken json</script></head><body></body></html>`
    expect(read('/mixed.html', page)).toEqual({
      sources: ['json-ld', 'open-graph'],
      event: { title: 'LD title', start: { date: start }, imageUrl: 'https://cdn.example.com/a.jpg' },
    })
    expect(read('/no-event.html')).toBeNull()
    expect(read('/broken.ics', 'BEGIN:VCALENDAR\r\nnot really')).toBeNull()
  })

  test('dates and times: with an offset told in the platform zone, without one as written', () => {
    expect(parseIsoMoment('2030-06-01', ZONE)).toEqual({ date: '2030-06-01' })
    expect(parseIsoMoment('2030-06-01T19:00', ZONE)).toEqual({ date: '2030-06-01', time: '19:00' })
    expect(parseIsoMoment('2030-06-01 19:00', ZONE)).toEqual({ date: '2030-06-01', time: '19:00' })
    expect(parseIsoMoment('2030-06-01T23:30:00Z', ZONE)).toEqual({ date: '2030-06-01', time: '19:30' })
    expect(parseIsoMoment('2030-01-01T02:00:00Z', ZONE)).toEqual({ date: '2029-12-31', time: '21:00' })
    expect(parseIsoMoment('2030-06-01T19:00-0700', ZONE)).toEqual({ date: '2030-06-01', time: '22:00' })
    expect(parseIsoMoment('20300601T190000Z', ZONE)).toEqual({ date: '2030-06-01', time: '15:00' })
    for (const bad of ['2030-02-30', 'tomorrow', '2030-06-01T25:00', '', 42])
      expect(parseIsoMoment(bad, ZONE)).toBeNull()
  })

  test('a place written as one line is read into its parts where it can be', () => {
    expect(placeFromText('Grange Hall, 5 Oak Ave, Dover, DE 19901, USA')).toEqual({
      name: 'Grange Hall',
      street: '5 Oak Ave',
      city: 'Dover',
      region: 'DE',
      zip: '19901',
    })
    expect(placeFromText('The old mill by the river')).toEqual({ street: 'The old mill by the river' })
  })
})

describe('the form filled from an event', () => {
  const lastDate = lastBookableDate(today)
  const fill = (event: Parameters<typeof linkEventFill>[0]) => linkEventFill(event, { today, lastDate })

  test('every field found is filled, and the missing ones are named', () => {
    const { event } = read('/json-ld.html')!
    expect(fill(event)).toEqual({
      values: {
        eventTitle: 'Jazz on the River',
        eventDescription: 'An evening of live jazz & food trucks by the water.',
        showAdDates: [start],
        eventDate: start,
        startTime: '19:30',
        endTime: '22:00',
        endsNextDay: false,
        venueAddress: '200 River Rd',
        venueCity: 'Springfield',
        venueState: 'IL',
        venueZip: '62701',
        ticketUrl: 'https://tickets.example.com/jazz',
      },
      found: ['title', 'description', 'dates', 'times', 'place', 'ticketUrl'],
      missing: [],
      notes: [],
    })
    const og = fill(read('/open-graph.html')!.event)
    expect(og.found).toEqual(['title', 'description'])
    expect(og.missing).toEqual(['dates', 'times', 'place', 'ticketUrl'])
  })

  test('a two-day event shows on both days; an evening past midnight is one day that ends the next', () => {
    expect(fill(read('/h-event.html')!.event).values).toMatchObject({
      showAdDates: [start, second],
      eventDate: start,
      startTime: '09:00',
      endTime: '16:00',
    })
    const late = fill({ start: { date: start, time: '22:00' }, end: { date: second, time: '02:00' } })
    expect(late.values).toMatchObject({
      showAdDates: [start],
      startTime: '22:00',
      endTime: '02:00',
      endsNextDay: true,
    })
  })

  test('a long run is cut to the most display dates; a past or too-distant event gets none, and says why', () => {
    const long = fill({ start: { date: addDaysIso(today, 1) }, end: { date: addDaysIso(today, 40) } })
    expect(long.values.showAdDates).toHaveLength(MAX_DISPLAY_DATES)
    expect(long.notes).toEqual([
      `Only the first ${MAX_DISPLAY_DATES} days of the event were chosen as display dates.`,
    ])
    expect(long.found).toContain('dates')
    expect(long.found).not.toContain('times')
    const past = fill({ title: 'Old', start: { date: addDaysIso(today, -3) } })
    expect(past.values.showAdDates).toBeUndefined()
    expect(past.missing).toContain('dates')
    expect(past.notes[0]).toMatch(/already taken place/)
    const far = fill({ title: 'Far', start: { date: addDaysIso(lastDate, 5) } })
    expect(far.notes[0]).toMatch(/too far ahead/)
  })

  test('a long description is cut at a word; an http:// ticket link is not a ticket link', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const { values, notes, missing } = fill({ description: words, ticketUrl: 'http://tickets.example.com/' })
    expect(values.eventDescription!.length).toBeLessThanOrEqual(DESCRIPTION_MAX)
    expect(values.eventDescription).toMatch(/word\d+…$/)
    expect(notes).toEqual([`The description was cut to ${DESCRIPTION_MAX} characters.`])
    expect(missing).toContain('ticketUrl')
  })

  test('what the link filled replaces what was typed; the rest stays', () => {
    const typed = {
      eventTitle: 'Typed',
      eventDescription: 'Typed text',
      eventCategory: ['Music'],
      showAdDates: [],
      eventDate: '',
      contactPerson: 'Ann',
      contactPhone: '5551234567',
      contactEmail: 'ann@example.com',
    }
    const merged = filledFormValues(typed, { eventTitle: 'Jazz', startTime: '19:30', venueZip: '62701' })
    expect(merged).toMatchObject({
      eventTitle: 'Jazz',
      eventDescription: 'Typed text',
      eventCategory: ['Music'],
      contactPerson: 'Ann',
      startTime: '19:30',
      endTime: '',
      endsNextDay: false,
    })
    expect(merged.factFields).toMatchObject({ venueZip: '62701', ticketUrl: '', attendanceMode: 'in_person' })
  })
})
