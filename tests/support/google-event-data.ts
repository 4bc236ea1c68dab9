/**
 * Google's Event structured data guidance, as a checker of our JSON-LD
 * (https://developers.google.com/search/docs/appearance/structured-data/event): the properties it requires, those
 * it recommends, and the rules it gives for their values. `checkEvent` lists what a node lacks or gets wrong; a test
 * asserts there are no problems and that only the recommended properties an ad cannot have are missing.
 */

/** Required: without them the event is not eligible. `location` needs its `address` (a Place) or `url` (virtual). */
export const EVENT_REQUIRED = ['name', 'startDate', 'location'] as const

/** Recommended: each one that fits adds to the result. `previousStartDate` only for a rescheduled event. */
export const EVENT_RECOMMENDED = [
  'description',
  'endDate',
  'eventAttendanceMode',
  'eventStatus',
  'image',
  'offers',
  'organizer',
  'performer',
] as const

export const OFFER_RECOMMENDED = ['availability', 'price', 'priceCurrency', 'url', 'validFrom'] as const
export const ORGANIZER_RECOMMENDED = ['name', 'url'] as const

export const EVENT_STATUSES = [
  'https://schema.org/EventScheduled',
  'https://schema.org/EventCancelled',
  'https://schema.org/EventPostponed',
  'https://schema.org/EventRescheduled',
  'https://schema.org/EventMovedOnline',
]
const ATTENDANCE_MODES = [
  'https://schema.org/OfflineEventAttendanceMode',
  'https://schema.org/OnlineEventAttendanceMode',
  'https://schema.org/MixedEventAttendanceMode',
]

/** ISO 8601: a date (an all-day event), or a date and time with its UTC offset (Google asks for the offset). */
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$/

export interface EventCheck {
  /** Required properties absent (dotted for nested ones, such as `location.address`). */
  missingRequired: string[]
  /** Recommended properties absent. */
  missingRecommended: string[]
  /** Values against the guidance. */
  problems: string[]
}

const isAbsoluteUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/[^/]+/.test(value)
const asList = (value: unknown) => [value ?? []].flat() as Array<Record<string, unknown>>

function instant(value: string) {
  return DATE.test(value) ? new Date(`${value}T00:00:00Z`).getTime() : new Date(value).getTime()
}

export function checkEvent(node: Record<string, unknown>): EventCheck {
  const check: EventCheck = { missingRequired: [], missingRecommended: [], problems: [] }
  if (node['@type'] !== 'Event') check.problems.push(`@type is ${String(node['@type'])}, not Event`)
  for (const name of EVENT_REQUIRED) if (node[name] === undefined) check.missingRequired.push(name)
  for (const name of EVENT_RECOMMENDED) if (node[name] === undefined) check.missingRecommended.push(name)

  if (typeof node.name !== 'string' || node.name.trim() === '') check.problems.push('name is empty')
  for (const name of ['startDate', 'endDate', 'previousStartDate'] as const) {
    const value = node[name]
    if (value !== undefined && !(typeof value === 'string' && (DATE.test(value) || DATE_TIME.test(value))))
      check.problems.push(`${name} ${String(value)} is not an ISO 8601 date, or date-time with an offset`)
  }
  if (typeof node.startDate === 'string' && typeof node.endDate === 'string') {
    if (instant(node.endDate) < instant(node.startDate)) check.problems.push('endDate is before startDate')
  }
  if (node.eventStatus !== undefined && !EVENT_STATUSES.includes(String(node.eventStatus)))
    check.problems.push(`eventStatus ${String(node.eventStatus)} is not one of Google's`)
  if (node.previousStartDate !== undefined && node.eventStatus !== 'https://schema.org/EventRescheduled')
    check.problems.push('previousStartDate without eventStatus EventRescheduled')
  if (node.eventAttendanceMode !== undefined && !ATTENDANCE_MODES.includes(String(node.eventAttendanceMode)))
    check.problems.push(`eventAttendanceMode ${String(node.eventAttendanceMode)} is not one of schema.org's`)

  for (const location of asList(node.location)) {
    if (location['@type'] === 'Place') {
      const address = location.address as Record<string, unknown> | undefined
      if (!address) check.missingRequired.push('location.address')
      else if (address['@type'] !== 'PostalAddress')
        check.problems.push('location.address is not a PostalAddress')
      if (!location.name) check.missingRecommended.push('location.name')
    } else if (location['@type'] === 'VirtualLocation') {
      if (!isAbsoluteUrl(location.url)) check.missingRequired.push('location.url')
    } else check.problems.push(`location of @type ${String(location['@type'])}`)
  }

  for (const offer of asList(node.offers)) {
    for (const name of OFFER_RECOMMENDED)
      if (offer[name] === undefined) check.missingRecommended.push(`offers.${name}`)
    if (offer.price !== undefined && offer.priceCurrency === undefined)
      check.problems.push('offers.price without priceCurrency')
    if (offer.url !== undefined && !isAbsoluteUrl(offer.url))
      check.problems.push('offers.url is not absolute')
  }

  const organizer = node.organizer as Record<string, unknown> | undefined
  if (organizer) {
    for (const name of ORGANIZER_RECOMMENDED)
      if (organizer[name] === undefined) check.missingRecommended.push(`organizer.${name}`)
    if (organizer.url !== undefined && !isAbsoluteUrl(organizer.url))
      check.problems.push('organizer.url is not absolute')
  }
  for (const image of asList(node.image) as unknown[])
    if (!isAbsoluteUrl(image) && !isAbsoluteUrl((image as Record<string, unknown>)?.url))
      check.problems.push('image is not an absolute URL')
  return check
}

/** The nodes of a page's JSON-LD: one object or a list of them. */
export function jsonLdItems(jsonLd: unknown): Array<Record<string, unknown>> {
  return asList(jsonLd)
}

/**
 * Checks every Event of a page: none may have a problem or lack a required property, and each may lack only the
 * recommended properties in `mayLack` (what the ad has no value for). Returns the Events.
 */
export function expectGoogleEvents(jsonLd: unknown, mayLack: readonly string[] = []) {
  const items = jsonLdItems(jsonLd)
  const failures = items.flatMap((item, i) => {
    const { missingRequired, missingRecommended, problems } = checkEvent(item)
    if (item['@context'] !== 'https://schema.org') problems.push('@context is not https://schema.org')
    const unexpected = missingRecommended.filter((name) => !mayLack.includes(name))
    return [
      ...missingRequired.map((name) => `#${i}: required ${name} missing`),
      ...problems.map((problem) => `#${i}: ${problem}`),
      ...unexpected.map((name) => `#${i}: recommended ${name} missing`),
    ]
  })
  if (items.length === 0) failures.push('no Event at all')
  if (failures.length) throw new Error(`Not what Google asks of an Event:\n${failures.join('\n')}`)
  return items
}
