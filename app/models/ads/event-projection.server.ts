import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import { practicalFactColumns } from '#app/models/ads/practical-facts.ts'

/**
 * The one list of what anyone may see of a live event: what the public pages show (cards, the event page, the
 * calendar) and nothing of the business's dealings with the platform — price, days bought, payment and approval
 * dates, statuses, provider and staff ids. The business in the session (for its own events) and administrators get
 * the whole row.
 */
const PUBLIC_EVENT_FIELDS = [
  'eventID',
  'businessName',
  'eventTitle',
  'eventDescription',
  'category',
  'showAdOnDates',
  'eventDate',
  'firstShowDate',
  'lastShowDate',
  'nextShowDate',
  'stillPhotoURL',
  'videoURL',
  'stillPhotoPath',
  'videoPath',
  'contactPerson',
  'contactEmail',
  'contactPhone',
  'startTime',
  'endTime',
  'scheduleStatus',
  'scheduleNote',
] as const

export const PUBLIC_FIELDS: ReadonlyArray<PublicEventField> = [
  ...PUBLIC_EVENT_FIELDS,
  ...practicalFactColumns,
  ...(Object.keys(businessPublicColumns) as Array<keyof typeof businessPublicColumns>),
]

export type PublicEventField =
  | (typeof PUBLIC_EVENT_FIELDS)[number]
  | (typeof practicalFactColumns)[number]
  | keyof typeof businessPublicColumns

export type PublicEvent<T> = Pick<T, Extract<keyof T, PublicEventField>>

/** The public fields of an event row (those it has). */
export function toPublicEvent<T extends object>(event: T): PublicEvent<T> {
  const picked: Record<string, unknown> = {}
  for (const field of PUBLIC_FIELDS) {
    if (field in event) picked[field] = (event as Record<string, unknown>)[field]
  }
  return picked as PublicEvent<T>
}

/** Who is asking, as far as event fields go: the business in the session, and whether the user is an administrator. */
export interface EventAudience {
  businessID: number | null
  isAdmin: boolean
}

/** The whole row for its owner and administrators, the public fields for everyone else. */
export function eventFor<T extends { businessID: number }>(
  audience: EventAudience,
  event: T,
): T | PublicEvent<T> {
  return audience.isAdmin || event.businessID === audience.businessID ? event : toPublicEvent(event)
}
