/**
 * The event an event page or an .ics file describes, read for "Fill from a link": schema.org `Event` JSON-LD,
 * h-event microformats (microformats-parser), Open Graph, or the iCalendar VEVENT (ical.js). Pure: it reads text
 * that was already fetched (app/services/ads/fetch-from-link.server.ts). Dates and times come out as the platform
 * time zone's calendar dates and times of day.
 */
import { TZDate } from '@date-fns/tz'
import ICAL from 'ical.js'
import { mf2 } from 'microformats-parser'
import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5'
import type { LinkEvent, LinkEventSource, LinkMoment, LinkPlace } from './link-event-form.ts'

export type { LinkEvent, LinkEventSource, LinkMoment, LinkPlace }

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']

export interface ExtractedEvent {
  /** The formats that gave something, the first the main one. */
  sources: LinkEventSource[]
  event: LinkEvent
}

interface ReadOptions {
  /** The platform time zone: a time with an offset or a zone is told as its time there. */
  timeZone: string
  /** Of an .ics file's events, the first not before this date is read (else its first). */
  today: string
}

const pad = (n: number) => String(n).padStart(2, '0')

const localFormatters = new Map<string, Intl.DateTimeFormat>()

/** The calendar date and time of day of an instant in `timeZone`. */
function momentIn(instant: Date, timeZone: string): LinkMoment {
  let format = localFormatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    localFormatters.set(timeZone, format)
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]))
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` }
}

const ISO_MOMENT =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/**
 * An ISO 8601 date or date-time as the platform's date and time: with `Z` or an offset it is that instant's time in
 * `timeZone`; without, the time as written (a "floating" time). Null when it is neither.
 */
export function parseIsoMoment(value: unknown, timeZone: string): LinkMoment | null {
  if (typeof value !== 'string') return null
  const match = ISO_MOMENT.exec(value.trim())
  if (!match) return null
  const [, y, m, d, h, min, , zone] = match
  const date = `${y}-${m}-${d}`
  if (!isRealDate(date)) return null
  if (h === undefined || min === undefined) return { date }
  if (Number(h) > 23 || Number(min) > 59) return null
  if (!zone) return { date, time: `${h}:${min}` }
  const offset =
    zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})?$/, '$1:$2').replace(/:$/, ':00')
  const instant = new Date(`${date}T${h}:${min}:00${offset}`)
  return Number.isNaN(instant.getTime()) ? null : momentIn(instant, timeZone)
}

function isRealDate(date: string) {
  const parsed = new Date(`${date}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date
}

const BLOCK_TAGS = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr'])

function textOf(node: Node, out: string[]) {
  if (node.nodeName === '#text') out.push((node as DefaultTreeAdapterMap['textNode']).value)
  if (node.nodeName === 'script' || node.nodeName === 'style') return
  const children = 'childNodes' in node ? node.childNodes : []
  const block = BLOCK_TAGS.has(node.nodeName)
  if (block) out.push('\n')
  for (const child of children) textOf(child, out)
  if (block) out.push('\n')
}

/** Text as a person reads it: markup and entities read as HTML, spaces and blank lines tidied. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return ''
  let text = value
  if (/<[a-z!/]|&[#\w]+;/i.test(value)) {
    const out: string[] = []
    textOf(parseFragment(value), out)
    text = out.join('')
  }
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** An absolute http(s) address for `value` read from the page at `base`, or undefined. */
function absoluteUrl(value: unknown, base: string | URL | undefined): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined
  try {
    const url = new URL(value.trim(), base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

const firstOf = <T>(value: T | T[] | undefined | null): T | undefined =>
  Array.isArray(value) ? value[0] : (value ?? undefined)

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined)

const US_PLACE =
  /^(?:(.*?),\s*)?([^,]+?),\s*([A-Za-z]{2})\.?,?\s+(\d{5}(?:-\d{4})?)(?:,?\s*(?:USA?|United States))?$/i

/** A place written as one line: "Name, 12 Main St, Springfield, IL 62701" read into its parts where it can be. */
export function placeFromText(text: string): LinkPlace | undefined {
  const line = plainText(text).replace(/\n+/g, ', ')
  if (!line) return undefined
  const match = US_PLACE.exec(line)
  if (!match) return { street: line }
  const [, before, city, region, zip] = match
  const parts = (before ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  // The street is the part with a house number; the parts before it name the place.
  const streetAt = parts.findIndex((p) => /\d/.test(p))
  const street = streetAt >= 0 ? parts.slice(streetAt).join(', ') : parts.at(-1)
  const name = (streetAt >= 0 ? parts.slice(0, streetAt) : parts.slice(0, -1)).join(', ')
  return {
    ...(name ? { name } : {}),
    ...(street ? { street } : {}),
    city: city!.trim(),
    region: region!.toUpperCase(),
    zip: zip!,
  }
}

// --- JSON-LD -----------------------------------------------------------------------------------------------------

const EVENT_TYPE = /(?:^|[/#:])(?:\w*Event|Festival|Hackathon|CourseInstance|EventSeries)$/

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function typesOf(value: Json): string[] {
  const type = value['@type']
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string')
}

/** Every schema.org Event in a JSON-LD value (its @graph, lists and nested values included). */
function jsonLdEvents(value: unknown, found: Json[] = [], depth = 0): Json[] {
  if (depth > 8) return found
  if (Array.isArray(value)) for (const item of value) jsonLdEvents(item, found, depth + 1)
  else if (isObject(value)) {
    if (typesOf(value).some((t) => EVENT_TYPE.test(t))) found.push(value)
    for (const [key, item] of Object.entries(value))
      if (key !== '@context') jsonLdEvents(item, found, depth + 1)
  }
  return found
}

function jsonLdText(value: unknown): string | undefined {
  const first = firstOf(value as unknown[])
  if (typeof first === 'string') return nonEmpty(plainText(first))
  if (isObject(first) && typeof first['@value'] === 'string') return nonEmpty(plainText(first['@value']))
  return undefined
}

function jsonLdUrl(value: unknown, base: URL): string | undefined {
  for (const item of Array.isArray(value) ? value : [value]) {
    const url = isObject(item)
      ? absoluteUrl(item.url ?? item.contentUrl ?? item['@id'], base)
      : absoluteUrl(item, base)
    if (url) return url
  }
  return undefined
}

function jsonLdPlace(value: unknown): LinkPlace | undefined {
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item === 'string') return placeFromText(item)
    if (!isObject(item) || typesOf(item).includes('VirtualLocation')) continue
    const address = firstOf(item.address as unknown[])
    const name = jsonLdText(item.name)
    if (typeof address === 'string') return { ...placeFromText(address), ...(name ? { name } : {}) }
    if (isObject(address)) {
      const place: LinkPlace = {
        name,
        street: jsonLdText(address.streetAddress),
        city: jsonLdText(address.addressLocality),
        region: jsonLdText(address.addressRegion),
        zip: jsonLdText(address.postalCode),
      }
      if (Object.values(place).some(Boolean)) return place
    }
    if (name) return { name }
  }
  return undefined
}

function eventFromJsonLd(event: Json, base: URL, timeZone: string): LinkEvent {
  const offer = (Array.isArray(event.offers) ? event.offers : [event.offers]).find(isObject)
  return {
    title: jsonLdText(event.name),
    description: jsonLdText(event.description),
    start: parseIsoMoment(firstOf(event.startDate as unknown[]), timeZone) ?? undefined,
    end: parseIsoMoment(firstOf(event.endDate as unknown[]), timeZone) ?? undefined,
    place: jsonLdPlace(event.location),
    ticketUrl: (offer && jsonLdUrl(offer.url, base)) ?? jsonLdUrl(event.url, base),
    imageUrl: jsonLdUrl(event.image, base),
  }
}

// --- The page's own tags (JSON-LD scripts, Open Graph) ------------------------------------------------------------

function attr(element: Element, name: string) {
  return element.attrs.find((a) => a.name === name)?.value
}

function walk(node: Node, visit: (element: Element) => void) {
  if ('tagName' in node) visit(node)
  if ('childNodes' in node) for (const child of node.childNodes) walk(child, visit)
}

function pageTags(html: string) {
  const scripts: string[] = []
  const meta = new Map<string, string>()
  walk(parse(html), (element) => {
    if (element.tagName === 'script' && /^application\/ld\+json\b/i.test(attr(element, 'type') ?? '')) {
      scripts.push(
        element.childNodes
          .map((c) => (c.nodeName === '#text' ? (c as { value: string }).value : ''))
          .join(''),
      )
    }
    if (element.tagName === 'meta') {
      const key = (attr(element, 'property') ?? attr(element, 'name'))?.trim().toLowerCase()
      const content = attr(element, 'content')
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content)
    }
  })
  return { scripts, meta }
}

function parseJsonLd(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\s*(?:<!--|<!\[CDATA\[)|(?:-->|\]\]>)\s*$/g, ''))
  } catch {
    return null
  }
}

function eventFromOpenGraph(meta: Map<string, string>, base: URL, timeZone: string): LinkEvent {
  const get = (...keys: string[]) =>
    keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== '')
  const street = nonEmpty(get('og:street-address', 'event:location:street_address'))
  const place: LinkPlace = {
    street,
    city: nonEmpty(get('og:locality', 'event:location:locality')),
    region: nonEmpty(get('og:region', 'event:location:region')),
    zip: nonEmpty(get('og:postal-code', 'event:location:postal_code')),
  }
  return {
    title: nonEmpty(plainText(get('og:title'))),
    description: nonEmpty(plainText(get('og:description'))),
    start: parseIsoMoment(get('event:start_time', 'og:start_time'), timeZone) ?? undefined,
    end: parseIsoMoment(get('event:end_time', 'og:end_time'), timeZone) ?? undefined,
    place: Object.values(place).some(Boolean) ? place : undefined,
    imageUrl: absoluteUrl(get('og:image:secure_url', 'og:image:url', 'og:image'), base),
  }
}

// --- h-event ------------------------------------------------------------------------------------------------------

type Mf2Document = ReturnType<typeof mf2>
type Mf2Item = Mf2Document['items'][number]
type Mf2Property = Mf2Item['properties'][string][number]

const isMf2Item = (value: unknown): value is Mf2Item =>
  isObject(value) && Array.isArray(value.type) && isObject(value.properties)

function hEvents(items: readonly unknown[], found: Mf2Item[] = [], depth = 0): Mf2Item[] {
  if (depth > 8) return found
  for (const item of items) {
    if (!isMf2Item(item)) continue
    if (item.type?.includes('h-event')) found.push(item)
    hEvents(item.children ?? [], found, depth + 1)
    for (const values of Object.values(item.properties)) hEvents(values, found, depth + 1)
  }
  return found
}

function mf2Text(value: Mf2Property | undefined): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') return nonEmpty(plainText(value))
  if ('html' in value) return nonEmpty(plainText(value.html))
  if ('value' in value && typeof value.value === 'string') return nonEmpty(plainText(value.value))
  return undefined
}

function mf2Place(value: Mf2Property | undefined): LinkPlace | undefined {
  if (value === undefined) return undefined
  if (!isMf2Item(value)) {
    const text = mf2Text(value)
    return text ? placeFromText(text) : undefined
  }
  const props = value.properties
  const adr = (props.adr ?? []).find(isMf2Item)
  const read = (name: string) => mf2Text(props[name]?.[0]) ?? mf2Text(adr?.properties[name]?.[0])
  const place: LinkPlace = {
    name: read('name'),
    street: read('street-address'),
    city: read('locality'),
    region: read('region'),
    zip: read('postal-code'),
  }
  if (place.street || place.city || place.zip) return place
  const text = mf2Text(value.value as Mf2Property | undefined) ?? place.name
  return text ? placeFromText(text) : undefined
}

function mf2Url(value: Mf2Property | undefined, base: URL): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') return absoluteUrl(value, base)
  if ('value' in value && typeof value.value === 'string') return absoluteUrl(value.value, base)
  return undefined
}

function eventFromHEvent(item: Mf2Item, base: URL, timeZone: string): LinkEvent {
  const first = (name: string) => item.properties[name]?.[0]
  return {
    title: mf2Text(first('name')),
    description: mf2Text(first('description')) ?? mf2Text(first('summary')) ?? mf2Text(first('content')),
    start: parseIsoMoment(mf2Text(first('start')), timeZone) ?? undefined,
    end: parseIsoMoment(mf2Text(first('end')), timeZone) ?? undefined,
    place: mf2Place(first('location')),
    ticketUrl: mf2Url(first('url'), base),
    imageUrl: mf2Url(first('photo'), base),
  }
}

// --- iCalendar ----------------------------------------------------------------------------------------------------

function isTimeZone(name: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** A DTSTART or DTEND as the platform's date and time: in UTC, in its TZID, or floating. */
function icalMoment(property: ICAL.Property | null, timeZone: string): LinkMoment | undefined {
  const value = property?.getFirstValue() as ICAL.Time | undefined
  if (!value || typeof value !== 'object' || !('year' in value)) return undefined
  const date = `${value.year}-${pad(value.month)}-${pad(value.day)}`
  if (value.isDate) return { date }
  const tzid = property?.getParameter('tzid')
  const zone = typeof tzid === 'string' ? tzid : undefined
  if (value.zone?.tzid === 'UTC' || /Z$/.test(value.toString())) {
    return momentIn(
      new Date(Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute)),
      timeZone,
    )
  }
  if (zone && isTimeZone(zone)) {
    const instant = new TZDate(value.year, value.month - 1, value.day, value.hour, value.minute, 0, zone)
    return momentIn(new Date(instant.getTime()), timeZone)
  }
  return { date, time: `${pad(value.hour)}:${pad(value.minute)}` }
}

function icalImage(vevent: ICAL.Component, base: URL): string | undefined {
  for (const name of ['image', 'attach']) {
    for (const property of vevent.getAllProperties(name)) {
      const type = property.getParameter('fmttype')
      if (name === 'attach' && !(typeof type === 'string' && type.startsWith('image/'))) continue
      const url = absoluteUrl(property.getFirstValue(), base)
      if (url) return url
    }
  }
  return undefined
}

function eventFromIcalendar(text: string, base: URL, { timeZone, today }: ReadOptions): LinkEvent | null {
  let calendar: ICAL.Component
  try {
    calendar = new ICAL.Component(ICAL.parse(text))
  } catch {
    return null
  }
  const events = calendar.getAllSubcomponents('vevent')
  const read = events.map((vevent) => ({
    vevent,
    start: icalMoment(vevent.getFirstProperty('dtstart'), timeZone),
  }))
  const chosen = read.find((e) => e.start && e.start.date >= today) ?? read[0]
  if (!chosen) return null
  const { vevent } = chosen
  const textOfProperty = (name: string) => {
    const value = vevent.getFirstPropertyValue(name)
    return typeof value === 'string' ? nonEmpty(plainText(value)) : undefined
  }
  const location = textOfProperty('location')
  return {
    title: textOfProperty('summary'),
    description: textOfProperty('description'),
    start: chosen.start,
    end: icalMoment(vevent.getFirstProperty('dtend'), timeZone),
    place: location ? placeFromText(location) : undefined,
    ticketUrl: absoluteUrl(vevent.getFirstPropertyValue('url'), base),
    imageUrl: icalImage(vevent, base),
  }
}

// --- One event from what was found --------------------------------------------------------------------------------

const hasAnything = (event: LinkEvent) => Object.values(event).some((v) => v !== undefined)

/** Each field from the first source that has it: JSON-LD, then h-event, then Open Graph. */
function merged(found: Array<[LinkEventSource, LinkEvent]>): ExtractedEvent | null {
  const event: LinkEvent = {}
  const sources = new Set<LinkEventSource>()
  const keys = ['title', 'description', 'start', 'end', 'place', 'ticketUrl', 'imageUrl'] as const
  for (const key of keys) {
    // An end is only read with the start it belongs to.
    const from = key === 'end' ? found.filter(([, e]) => e.start === event.start) : found
    const source = from.find(([, e]) => e[key] !== undefined)
    if (!source) continue
    ;(event as Record<string, unknown>)[key] = source[1][key]
    sources.add(source[0])
  }
  return hasAnything(event) ? { sources: [...sources], event } : null
}

/**
 * The event a fetched document describes: an .ics file's event, or a page's JSON-LD Event, h-event and Open Graph
 * tags together. Null when it describes none.
 */
export function eventFromDocument(
  document: { kind: 'html' | 'icalendar'; text: string; url: URL },
  options: ReadOptions,
): ExtractedEvent | null {
  if (document.kind === 'icalendar') {
    const event = eventFromIcalendar(document.text, document.url, options)
    return event && hasAnything(event) ? { sources: ['icalendar'], event } : null
  }
  const { scripts, meta } = pageTags(document.text)
  const found: Array<[LinkEventSource, LinkEvent]> = []
  const jsonLd = scripts.flatMap((script) => jsonLdEvents(parseJsonLd(script)))
  const withDate = jsonLd.find((e) => e.startDate) ?? jsonLd[0]
  if (withDate) found.push(['json-ld', eventFromJsonLd(withDate, document.url, options.timeZone)])
  let parsed: Mf2Document | null = null
  try {
    parsed = mf2(document.text, { baseUrl: document.url.href })
  } catch {
    parsed = null
  }
  const hEvent = parsed ? hEvents(parsed.items)[0] : undefined
  if (hEvent) found.push(['h-event', eventFromHEvent(hEvent, document.url, options.timeZone)])
  const openGraph = eventFromOpenGraph(meta, document.url, options.timeZone)
  if (hasAnything(openGraph)) found.push(['open-graph', openGraph])
  return merged(found.filter(([, e]) => hasAnything(e)))
}
