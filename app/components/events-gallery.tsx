import { Link } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { GALLERY_ARROWS_ABOVE, GALLERY_SCROLL_STEP_PX } from '#app/constants.ts'
import { externalUrl, formatDatesLine, mediaSrc } from '#app/utils/format.ts'
import { MEDIA_FALLBACK_PROPS, MEDIA_PROPS } from '#app/utils/media-fallback.ts'
import { photoImgProps, type PhotoPriority, WIDE_PHOTO_HEIGHT, WIDE_PHOTO_WIDTH } from './photo-loading.ts'

export interface GalleryEvent {
  eventID: number
  eventTitle: string
  stillPhotoPath: string
  showAdOnDates: string[]
  eventDate: string
  clicks: number
  bounces: number
  statusLabel: string
  /** The status badge's colours (`statusBadgeClass`, worked out on the server). */
  statusClass: string
  /** An unpaid draft without a category, which checkout refuses until one is chosen. */
  categoryNeeded: boolean
  /** The card processor's receipt (Stripe), when it gave one. */
  receiptUrl: string | null
  /** Our receipt of the ad's payment, once paid. */
  receiptHref: string | null
  /** The reviewer's note while the ad (or, live, its latest edit) is sent back or rejected. */
  reviewReason: string | null
  /** Where a live ad's latest edit stands, while it is not approved. */
  editNote: string | null
  /** Where to fix and resubmit an ad sent back with changes requested. */
  resubmitHref: string | null
  /** Where "Run again" posts, for an ad paid for once (live, ended, refunded): a new ad from it. */
  runAgainHref?: string | null
}

export function EventsGallery({ events }: { events: GalleryEvent[] }) {
  const scroller = useRef<HTMLUListElement>(null)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])

  // The arrows need JavaScript; without it the row still scrolls by itself (overflow-x-auto).
  const showArrows = hydrated && events.length > GALLERY_ARROWS_ABOVE

  function scrollByStep(direction: -1 | 1) {
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    scroller.current?.scrollBy({
      left: direction * GALLERY_SCROLL_STEP_PX,
      behavior: reduceMotion ? 'auto' : 'smooth',
    })
  }

  return (
    <section aria-labelledby="your-events-heading" className="mt-10">
      <div className="flex items-center justify-between gap-3">
        <h2 id="your-events-heading" className="text-2xl font-bold text-ink">
          Your Events
        </h2>
        {showArrows ? (
          <div className="flex gap-2">
            <button
              type="button"
              aria-label="Scroll events left"
              data-testid="gallery-scroll-left"
              onClick={() => scrollByStep(-1)}
              className="grid size-10 place-items-center rounded-full border border-slate-300 bg-white text-lg hover:bg-slate-50"
            >
              <span aria-hidden>‹</span>
            </button>
            <button
              type="button"
              aria-label="Scroll events right"
              data-testid="gallery-scroll-right"
              onClick={() => scrollByStep(1)}
              className="grid size-10 place-items-center rounded-full border border-slate-300 bg-white text-lg hover:bg-slate-50"
            >
              <span aria-hidden>›</span>
            </button>
          </div>
        ) : null}
      </div>

      {events.length === 0 ? (
        <div className="mt-4 rounded-xl border-2 border-dashed border-slate-300 px-6 py-12 text-center">
          <h3 className="text-lg font-semibold text-ink">No active events</h3>
          <p className="mt-1 text-slate-600">Get started by creating your first event</p>
        </div>
      ) : (
        <ul
          ref={scroller}
          data-testid="events-gallery"
          aria-label="Your events"
          // Focusable so the row can be scrolled with the keyboard.
          tabIndex={0}
          className="mt-4 flex gap-4 overflow-x-auto pb-3 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          {events.map((event, i) => (
            <GalleryCard key={event.eventID} event={event} photoPriority={i === 0 ? 'high' : 'lazy'} />
          ))}
        </ul>
      )}
    </section>
  )
}

function GalleryCard({ event, photoPriority }: { event: GalleryEvent; photoPriority: PhotoPriority }) {
  const receipt = externalUrl(event.receiptUrl)
  return (
    <li
      data-testid="gallery-card"
      className="relative flex w-72 shrink-0 flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm hover:shadow-md"
    >
      <GalleryThumb
        key={event.stillPhotoPath}
        path={event.stillPhotoPath}
        title={event.eventTitle}
        priority={photoPriority}
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="line-clamp-2 font-semibold break-words text-ink">
            {/* The link's ::after covers the whole card, so a click anywhere opens the event. */}
            <Link to={`/event/${event.eventID}?viewMode=true`} className="after:absolute after:inset-0">
              {event.eventTitle}
            </Link>
          </h3>
          <span
            data-testid="event-status"
            className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${event.statusClass}`}
          >
            {event.statusLabel}
          </span>
        </div>
        <p className="text-sm text-slate-600" data-testid="event-dates">
          {formatDatesLine(event.showAdOnDates, event.eventDate)}
        </p>
        {event.categoryNeeded ? (
          <p
            data-testid="category-needed"
            className="rounded-md bg-amber-50 px-2 py-1.5 text-sm text-slate-800"
          >
            Needs a category before checkout.{' '}
            <Link
              to={`/dashboard/events/${event.eventID}/edit`}
              className="relative z-10 font-medium text-brand-700 underline"
            >
              Choose one<span className="sr-only"> for {event.eventTitle}</span>
            </Link>
          </p>
        ) : null}
        {event.editNote ? (
          <p data-testid="edit-note" className="text-sm text-slate-700">
            {event.editNote}
          </p>
        ) : null}
        {event.reviewReason ? (
          <p
            data-testid="review-reason"
            className="rounded-md bg-amber-50 px-2 py-1.5 text-sm break-words text-slate-800"
          >
            <span className="font-semibold">Reviewer:</span> {event.reviewReason}
          </p>
        ) : null}
        {event.resubmitHref ? (
          <Link
            to={event.resubmitHref}
            className="relative z-10 self-start text-sm font-medium text-brand-700 underline"
          >
            Edit and resubmit
          </Link>
        ) : null}
        <dl className="mt-auto grid grid-cols-2 gap-2 text-sm">
          <div className="rounded-md bg-slate-50 px-2 py-1.5">
            <dt className="text-slate-600">Clicks this month</dt>
            <dd className="text-lg font-bold text-ink" data-testid="event-clicks">
              {event.clicks}
            </dd>
          </div>
          <div className="rounded-md bg-slate-50 px-2 py-1.5">
            <dt className="text-slate-600">Bounces this month</dt>
            <dd className="text-lg font-bold text-ink" data-testid="event-bounces">
              {event.bounces}
            </dd>
          </div>
        </dl>
        <Link
          to={`/dashboard/events/${event.eventID}`}
          className="relative z-10 self-start text-sm font-medium text-brand-700 underline"
        >
          Analytics and history<span className="sr-only"> of {event.eventTitle}</span>
        </Link>
        {event.runAgainHref ? (
          // A plain form, so it works without JavaScript (the ad's own page has the same button).
          <form method="post" action={event.runAgainHref} className="relative z-10 self-start">
            <button type="submit" className="text-sm font-medium text-brand-700 underline">
              Run again<span className="sr-only"> {event.eventTitle}</span>
            </button>
          </form>
        ) : null}
        {event.receiptHref || receipt ? (
          <p className="relative z-10 flex gap-3 self-start text-sm font-medium">
            {event.receiptHref ? (
              <Link to={event.receiptHref} className="text-brand-700 underline">
                Receipt
              </Link>
            ) : null}
            {receipt ? (
              <a
                href={receipt}
                target="_blank"
                rel="noopener noreferrer"
                className="text-brand-700 underline"
              >
                Card receipt (Stripe)
              </a>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  )
}

/** A gallery card is 18rem wide. */
const GALLERY_PHOTO_SIZES = '18rem'

function GalleryThumb({ path, title, priority }: { path: string; title: string; priority: PhotoPriority }) {
  const src = mediaSrc(path)
  // A photo that fails to load is swapped for the letters by the page's media fallback script.
  const fallback = (
    <div
      {...MEDIA_FALLBACK_PROPS}
      hidden={src !== null}
      suppressHydrationWarning
      aria-hidden
      data-testid="gallery-thumb-fallback"
      className="grid h-40 place-items-center bg-slate-800 text-4xl font-black tracking-wide text-white"
    >
      {title.trim().slice(0, 2).toUpperCase()}
    </div>
  )
  if (!src) return fallback
  return (
    <>
      <img
        {...MEDIA_PROPS}
        suppressHydrationWarning
        {...photoImgProps({
          src,
          sizes: GALLERY_PHOTO_SIZES,
          width: WIDE_PHOTO_WIDTH,
          height: WIDE_PHOTO_HEIGHT,
          priority,
        })}
        alt=""
        className="h-40 w-full object-cover"
      />
      {fallback}
    </>
  )
}
