import { parseId } from '#app/models/platform/input-rules.ts'
import { slugOf } from '#app/utils/slug.ts'

/**
 * An event's public address: `/event/{id}-{slug}`, the slug made from its title. `/event/{id}` alone is its owner's
 * preview, and `/event/{id}?viewMode=true` still shows the public page, naming this address as its canonical one.
 */

/** "Friday Night Jazz Trio" → "friday-night-jazz-trio"; "event" for a title without Latin letters or digits. */
export function eventSlug(title: string): string {
  return slugOf(title, 'event')
}

export interface EventAddressSource {
  eventID: number
  eventTitle: string
}

/** The public page of an event, as every link, feed, sitemap and search engine is given it. */
export function eventPagePath({ eventID, eventTitle }: EventAddressSource): string {
  return `/event/${eventID}-${eventSlug(eventTitle)}`
}

/** The event's page as an absolute URL. */
export function eventPageUrl(event: EventAddressSource, origin: string): string {
  return new URL(eventPagePath(event), `${origin}/`).toString()
}

/**
 * The id in an event page's address and whether it is the public address (`12-a-slug`): any slug is taken, and the
 * page sends a stale one on to the current address. A bare id (`12`) is the owner's preview.
 */
export function parseEventAddress(
  segment: string | undefined,
): { eventID: number; slug: string | null } | null {
  const match = /^(\d{1,10})(?:-([a-z0-9-]{1,200}))?$/i.exec(segment ?? '')
  const eventID = parseId(match?.[1])
  return match && eventID ? { eventID, slug: match[2]?.toLowerCase() ?? null } : null
}
