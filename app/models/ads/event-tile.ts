import type { PracticalFacts } from '#app/models/ads/practical-facts.ts'

/** The fields a calendar tile reads. */
export interface EventTileData {
  eventID: number
  eventTitle: string
  eventDescription: string
  category: readonly string[]
  stillPhotoPath: string
  businessName: string
  businessCity?: string
  /** The date the card shows (`nextEventDate`): the event's own date, else its next display date. */
  date: string | null
  /** The event's times on that date (`hh:mm`; no start = all day). */
  startTime?: string | null
  endTime?: string | null
  /** Cancelled, postponed or sold out (schedule-status.ts); null or absent = as advertised. */
  scheduleStatus?: string | null
  /**
   * Under a date filter, when the event's own date is outside the window: which display date matched
   * (`advertisedText`: "Advertised today", "Advertised Sat, Nov 28").
   */
  advertisedText?: string | null
  /** The practical facts a tile has room for (price, online, step-free access); none on older tiles. */
  facts?: Pick<PracticalFacts, 'priceCents' | 'attendanceMode' | 'accessibilityFeatures'>
  /** The business's page, when it has one ("More from Blue Door Cafe"). */
  businessHref?: string | null
  /** Shown in a Sponsored slot: labelled "Sponsored", and a click from it is counted as a slot click. */
  sponsored?: boolean
}
