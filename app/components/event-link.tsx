import type { ReactNode } from 'react'
import { eventPagePath, type EventAddressSource } from '#app/models/ads/event-address.ts'
import { FROM_PARAM, FROM_SPONSORED_SLOT } from '#app/models/calendar/sponsored-placement.ts'

/**
 * Where a click on an event's link is counted: the link's `ping`, which the browser posts as it follows the link
 * (left, middle or keyboard), with or without JavaScript. A GET of the link itself (a prefetch, a crawler, a copied
 * address) counts nothing.
 */
export function eventClickPath(eventID: number, fromSponsoredSlot = false) {
  return `/event/${eventID}/view${fromSponsoredSlot ? `?${FROM_PARAM}=${FROM_SPONSORED_SLOT}` : ''}`
}

/** A link to an event's public page that counts its click (a Sponsored slot's apart). */
export function EventLink({
  event,
  fromSponsoredSlot = false,
  className = '',
  decorative = false,
  newTab = false,
  children,
}: {
  event: EventAddressSource
  fromSponsoredSlot?: boolean
  className?: string
  /** A second link to the same page (a photo): skipped by the keyboard and screen readers, which have the title. */
  decorative?: boolean
  newTab?: boolean
  children: ReactNode
}) {
  return (
    <a
      href={eventPagePath(event)}
      ping={eventClickPath(event.eventID, fromSponsoredSlot)}
      className={className}
      {...(decorative ? { tabIndex: -1, 'aria-hidden': true } : {})}
      {...(newTab ? { target: '_blank', rel: 'noopener' } : {})}
    >
      {children}
    </a>
  )
}
