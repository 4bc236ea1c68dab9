import { CARD_BUSINESS_FIELDS, type CardBusiness } from '#app/models/ads/card-business.ts'
import {
  EMPTY_PRACTICAL_FACTS,
  factsFromFields,
  practicalFactColumns,
  practicalFactsOf,
  type PracticalFactFields,
  type PracticalFacts,
  type StoredFacts,
} from '#app/models/ads/practical-facts.ts'
import { eventTimesOf, type EventTimes } from '#app/models/ads/event-times.ts'
import { scheduleStatusOf, type ScheduleStatus } from '#app/models/ads/schedule-status.ts'

export { CARD_BUSINESS_FIELDS, URL_FIELDS, type CardBusiness } from '#app/models/ads/card-business.ts'

/**
 * The one place the customer event card's data comes from ("Customer event card (shared by preview,
 * detail and demos)"): the advertiser's preview and the public page both build it here, from the business and the
 * ad, so what the advertiser approves is what customers see.
 */

/** The ad's own part of the card: saved, or still being written (its facts as saved, or as typed). */
export interface CardAd extends Partial<StoredFacts> {
  factFields?: PracticalFactFields
  eventTitle: string
  eventDescription: string
  /** The ad's own contact details, shown where the business has none. */
  contactPerson?: string | null
  contactPhone?: string | null
  contactEmail?: string | null
  /** Stored path or URL of the photo and video; served from /api/media/{last segment}. */
  stillPhotoPath?: string | null
  videoPath?: string | null
  /** Its times of day (as stored, `hh:mm:ss`, or as typed, `hh:mm`); none = all day. */
  startTime?: string | null
  endTime?: string | null
  /** Cancelled, postponed or sold out, with the advertiser's note (schedule-status.ts). */
  scheduleStatus?: string | null
  scheduleNote?: string | null
}

type CardOwnFields = Omit<
  CardAd,
  keyof StoredFacts | 'factFields' | 'startTime' | 'endTime' | 'scheduleStatus' | 'scheduleNote'
>

/** Everything the card reads. */
export type CustomerCardData = CardBusiness &
  Required<CardOwnFields> & {
    facts: PracticalFacts
    times: EventTimes
    scheduleStatus: ScheduleStatus | null
    scheduleNote: string
  }

/** The ad's practical facts: as typed in the form, or those it holds (none given = none said). */
export function cardFacts(ad: Pick<CardAd, keyof StoredFacts | 'factFields'>): PracticalFacts {
  if (ad.factFields) return factsFromFields(ad.factFields)
  const stored = { ...EMPTY_PRACTICAL_FACTS } as StoredFacts
  for (const key of practicalFactColumns) {
    if (ad[key] !== undefined) (stored as Record<string, unknown>)[key] = ad[key]
  }
  return practicalFactsOf(stored)
}

type ContactFields = Pick<CardBusiness, 'businessContact' | 'businessPhone' | 'businessEmail'>

/** An ad's contact details: what the advertiser entered, or else the business's own (as the ad is saved). */
export function adContact(
  ad: Pick<CardAd, 'contactPerson' | 'contactPhone' | 'contactEmail'>,
  business: ContactFields,
) {
  return {
    contactPerson: ad.contactPerson || business.businessContact,
    contactPhone: ad.contactPhone || business.businessPhone,
    contactEmail: ad.contactEmail || business.businessEmail,
  }
}

/** Exactly the card's fields, nothing else (so a page never ships more of an event than the card shows). */
export function customerCardData(business: CardBusiness, ad: CardAd): CustomerCardData {
  const card = {} as CardBusiness
  for (const field of CARD_BUSINESS_FIELDS) card[field] = business[field] ?? ''
  return {
    ...card,
    eventTitle: ad.eventTitle,
    eventDescription: ad.eventDescription,
    ...adContact(ad, card),
    stillPhotoPath: ad.stillPhotoPath ?? '',
    videoPath: ad.videoPath ?? '',
    facts: cardFacts(ad),
    times: eventTimesOf(ad),
    scheduleStatus: scheduleStatusOf(ad.scheduleStatus),
    scheduleNote: ad.scheduleStatus ? (ad.scheduleNote ?? '') : '',
  }
}
