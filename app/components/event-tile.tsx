import { EventWhenLine } from '#app/components/event-facts.tsx'
import type { EventAddressSource } from '#app/models/ads/event-address.ts'
import { EventLink } from '#app/components/event-link.tsx'
import { PracticalFactBadges } from '#app/components/practical-facts.tsx'
import { ScheduleStatusBadge } from '#app/components/schedule-status.tsx'
import { mediaSrc } from '#app/utils/format.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { SPONSORED_LABEL } from '#app/models/calendar/sponsored-placement.ts'
import { MEDIA_PROPS } from '#app/utils/media-fallback.ts'
import { moreFromText } from '#app/models/calendar/business-links.ts'
import { photoImgProps, type PhotoPriority, WIDE_PHOTO_HEIGHT, WIDE_PHOTO_WIDTH } from './photo-loading.ts'

export type { EventTileData }

export const VIEW_DETAILS_TEXT = 'View details'

/** The "Sponsored" label of an ad in a Sponsored slot: text on a contrasting ground. */
export function SponsoredBadge({ className = '' }: { className?: string }) {
  return (
    <span
      data-testid="sponsored-label"
      className={`inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 ${className}`}
    >
      {SPONSORED_LABEL}
    </span>
  )
}

/** 'View details': a link styled as a button, its title read out with it ("View details: Church supper"). */
export function ViewDetailsLink({
  event,
  fromSponsoredSlot = false,
  className = '',
}: {
  event: EventAddressSource
  fromSponsoredSlot?: boolean
  className?: string
}) {
  return (
    <div className={className}>
      <EventLink
        event={event}
        fromSponsoredSlot={fromSponsoredSlot}
        className="relative block w-full rounded-md bg-brand-600 px-3 py-2 text-center text-sm font-semibold text-white hover:bg-brand-700"
      >
        {VIEW_DETAILS_TEXT}
        <span className="sr-only">: {event.eventTitle}</span>
      </EventLink>
    </div>
  )
}

/**
 * The photo, or the title's first letter when there is none. The letter also sits under the photo, so a photo that
 * fails to load shows it once the page's media fallback script has hidden the broken image.
 */
export function EventThumb({
  title,
  photoPath,
  priority = 'lazy',
  sizes,
  className = '',
}: {
  title: string
  photoPath: string
  priority?: PhotoPriority
  /** How wide the tile is on the page, for the browser's choice among the photo's copies. */
  sizes: string
  className?: string
}) {
  const src = mediaSrc(photoPath)
  const letter = (title.trim()[0] ?? '?').toUpperCase()
  return (
    <div className={`relative overflow-hidden bg-slate-800 ${className}`}>
      <span
        aria-hidden
        data-testid="event-letter"
        className="absolute inset-0 grid place-items-center text-5xl font-black text-white"
      >
        {letter}
      </span>
      {src ? (
        <img
          {...MEDIA_PROPS}
          suppressHydrationWarning
          // The tile's box has a fixed height; width and height only tell the browser the shape before the photo arrives.
          {...photoImgProps({ src, sizes, width: WIDE_PHOTO_WIDTH, height: WIDE_PHOTO_HEIGHT, priority })}
          alt=""
          className="absolute inset-0 size-full object-cover"
        />
      ) : null}
    </div>
  )
}

/** A featured tile is 14rem wide; a grid tile up to a third of the results' 52rem column, the full width of a phone. */
const FEATURED_SIZES = '14rem'
const GRID_SIZES = '(min-width: 80rem) 17rem, (min-width: 40rem) 50vw, 100vw'

export function EventTile({
  event,
  compact = false,
  photoPriority = 'lazy',
}: {
  event: EventTileData
  compact?: boolean
  photoPriority?: PhotoPriority
}) {
  return (
    <article
      data-testid={compact ? 'featured-event' : 'calendar-event'}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <EventLink event={event} fromSponsoredSlot={event.sponsored} decorative>
        <EventThumb
          title={event.eventTitle}
          photoPath={event.stillPhotoPath}
          priority={photoPriority}
          sizes={compact ? FEATURED_SIZES : GRID_SIZES}
          className={compact ? 'h-28' : 'h-40'}
        />
      </EventLink>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {event.sponsored ? <SponsoredBadge className="self-start" /> : null}
        <h3 className="font-semibold break-words text-ink">
          <EventLink event={event} fromSponsoredSlot={event.sponsored} className="hover:underline">
            {event.eventTitle}
          </EventLink>
        </h3>
        <ScheduleStatusBadge status={event.scheduleStatus} className="self-start" />
        {compact ? null : <p className="line-clamp-2 text-sm text-slate-600">{event.eventDescription}</p>}
        <EventWhenLine
          date={event.date}
          category={event.category}
          startTime={event.startTime}
          endTime={event.endTime}
          eventOn={Boolean(event.advertisedText)}
        />
        {event.advertisedText ? (
          <p data-testid="event-advertised" className="-mt-1 text-sm text-slate-700">
            {event.advertisedText}
          </p>
        ) : null}
        {event.facts ? <PracticalFactBadges facts={event.facts} /> : null}
        {event.businessHref ? (
          <a href={event.businessHref} className="text-sm font-medium text-brand-700 underline">
            {moreFromText(event.businessName)}
          </a>
        ) : null}
        <ViewDetailsLink event={event} fromSponsoredSlot={event.sponsored} className="mt-auto pt-2" />
      </div>
    </article>
  )
}
