import { Link } from '@remix-run/react'
import { useId, type ReactNode } from 'react'
import { toast } from '#app/components/toaster.tsx'
import type { CustomerCardData } from '#app/models/ads/customer-card.ts'
import { externalUrl, formatPhone, mediaSrc, videoTypeFromUrl } from '#app/utils/format.ts'
import { MEDIA_FALLBACK_PROPS, MEDIA_PROPS } from '#app/utils/media-fallback.ts'
import { creditedHref, UNCREDITED_LINKS, type OutboundLinks } from '#app/models/ads/outbound-links.ts'
import { photoImgProps, type PhotoPriority } from './photo-loading.ts'
import { PracticalFactsList } from './practical-facts.tsx'
import { EventWhen } from './event-facts.tsx'
import { ScheduleStatusBadge } from './schedule-status.tsx'
import { formatTimeRange } from '#app/models/ads/event-times.ts'
import { moreFromText } from '#app/models/calendar/business-links.ts'

/** The card is at most 48rem wide (the event page's column), the full width of a phone. */
const CARD_PHOTO_SIZES = '(min-width: 48rem) 46rem, 100vw'
const CARD_PHOTO_WIDTH = 1600
const CARD_PHOTO_HEIGHT = 1200

/** Built by `customerCardData` (#app/models/ads/customer-card.ts), the one source of what the card shows. */
export type CustomerEventCardData = CustomerCardData

export type CustomerEventCardMode = 'normal' | 'preview' | 'public'

/**
 * What a card button does. `href` navigates (works without JavaScript); `submit` makes it a submit button of the
 * enclosing form or of the form with id `submit.form`; `onClick` runs in the browser first.
 */
export interface CardButtonAction {
  href?: string
  submit?: {
    form?: string
    name?: string
    value?: string
    formAction?: string
    formMethod?: 'get' | 'post'
    formEncType?: 'application/x-www-form-urlencoded' | 'multipart/form-data'
  }
  onClick?: () => void
  disabled?: boolean
  /** Replaces the card's label, e.g. while saving. */
  label?: ReactNode
}

export interface CustomerEventCardProps {
  event: CustomerEventCardData
  mode?: CustomerEventCardMode
  /** Shown on the preview's approve button, e.g. "49.00". */
  cost?: string
  /** Files chosen but not uploaded yet (preview): shown as placeholders instead of the media. */
  media?: { photoFileName?: string; videoFileName?: string }
  /** Approve (normal: 'Approve your ad to publish'; preview: 'Approve Your Ad - $cost'). */
  approve?: CardButtonAction
  /** Reject (normal: 'Reject your ad') or cancel (preview: 'Cancel Your Ad'); both show 'Returning to Edit'. */
  reject?: CardButtonAction
  /** Replaces both buttons (normal and preview modes only). */
  actions?: ReactNode
  titleAs?: 'h1' | 'h2' | 'h3'
  /**
   * Visitors' order: the photo, the title with `details` (date, category) and the description come first, the
   * business's contact block after them. Without it, the specification's order (business first).
   */
  eventFirst?: boolean
  /** Shown under the title, e.g. the event's date and category (then it says when, in place of `date`). */
  details?: ReactNode
  /** The date the card says the event is on, with its times ("Sat, Nov 29 · 7:30 PM – 10 PM"); without it, the times. */
  date?: string | null
  /** Shows the link to join an online event (the event's own page). */
  joinLink?: boolean
  /** Whether the photo is the first thing on the screen (fetched first) or further down (fetched lazily). */
  photoPriority?: PhotoPriority
  /** The business's page, when it has one: "More from Blue Door Cafe" under its details. */
  businessHref?: string | null
  /**
   * On a list of events: wraps the title and the photo in links to the event's page (`EventLink`; the photo's is
   * `decorative`). Passed in, so the pages that draw the card in the browser (the preview) do not load the links.
   */
  linked?: (content: ReactNode, { decorative }: { decorative: boolean }) => ReactNode
  /** How the ad's links that leave the site are drawn (credit, `rel`); without it, as given (a preview, the review). */
  outbound?: OutboundLinks
  className?: string
}

export const RETURNING_TO_EDIT_TEXT = 'Returning to Edit'

export function approveLabel(mode: CustomerEventCardMode, cost = '0.00') {
  return mode === 'preview' ? `Approve Your Ad - $${cost}` : 'Approve your ad to publish'
}

export function rejectLabel(mode: CustomerEventCardMode) {
  return mode === 'preview' ? 'Cancel Your Ad' : 'Reject your ad'
}

export const MEDIA_PENDING_TEXT = 'will be processed and available after payment'

const SOCIAL_LINKS = [
  ['businessWebsite', 'Website'],
  ['facebookURL', 'Facebook'],
  ['instagramURL', 'Instagram'],
  ['linkedin', 'LinkedIn'],
  ['youtubeURL', 'YouTube'],
  ['xURL', 'X'],
  ['tiktokURL', 'TikTok'],
] as const satisfies ReadonlyArray<readonly [keyof CustomerEventCardData, string]>

/** The web links the business gave (its website and social pages), each opening in a new tab. */
export function BusinessContactLinks({
  business,
  outbound = UNCREDITED_LINKS,
}: {
  business: Pick<CustomerEventCardData, (typeof SOCIAL_LINKS)[number][0]>
  outbound?: OutboundLinks
}) {
  const links = SOCIAL_LINKS.flatMap(([field, label]) => {
    const href = externalUrl(business[field])
    return href ? [{ label, href: creditedHref(href, outbound.credit) }] : []
  })
  if (links.length === 0) return null
  return (
    <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label="Links">
      {links.map((link) => (
        <li key={link.label}>
          <a
            href={link.href}
            target="_blank"
            rel={outbound.rel}
            className="inline-block rounded-full border border-slate-300 bg-white px-3 py-1 font-medium text-slate-800 hover:border-brand-500 hover:text-brand-700"
          >
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  )
}

function text(value: string | null | undefined) {
  return (value ?? '').trim()
}

export function CustomerEventCard({
  event,
  mode = 'normal',
  cost,
  media,
  approve,
  reject,
  actions,
  titleAs: Title = 'h2',
  eventFirst = false,
  details,
  date = null,
  joinLink = false,
  photoPriority,
  businessHref = null,
  linked,
  outbound,
  className = '',
}: CustomerEventCardProps) {
  const titleId = useId()
  const phone = text(event.businessPhone) || text(event.contactPhone)
  const contact = text(event.businessContact) || text(event.contactPerson)
  const email = text(event.businessEmail) || text(event.contactEmail)
  const cityLine = [
    text(event.businessCity),
    [text(event.businessState), text(event.businessZip)].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ')
  const preview = mode === 'preview'
  const photoFileName = preview ? text(media?.photoFileName) : ''
  const videoFileName = preview ? text(media?.videoFileName) : ''
  const photo = mediaSrc(event.stillPhotoPath)
  const video = mediaSrc(event.videoPath)

  const businessBlock = (
    <header
      className={`bg-slate-50 px-5 py-4 ${eventFirst ? 'border-t border-slate-200' : 'border-b border-slate-200'}`}
    >
      <p className="text-lg font-bold text-ink">{event.businessName}</p>
      <address className="mt-1 grid gap-0.5 text-sm text-slate-700 not-italic">
        {text(event.businessAddress) ? <span>{text(event.businessAddress)}</span> : null}
        {cityLine ? <span>{cityLine}</span> : null}
        {phone ? (
          <span>
            Phone: <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{formatPhone(phone)}</a>
          </span>
        ) : null}
        {contact ? <span>Contact: {contact}</span> : null}
        {email ? (
          <span>
            Email:{' '}
            <a href={`mailto:${email}`} className="break-all text-brand-700 underline">
              {email}
            </a>
          </span>
        ) : null}
      </address>
      <BusinessContactLinks business={event} outbound={outbound} />
      {businessHref ? (
        <p className="mt-3 text-sm">
          <a href={businessHref} className="font-medium text-brand-700 underline">
            {moreFromText(event.businessName)}
          </a>
        </p>
      ) : null}
    </header>
  )
  const titleBlock = (
    <div className="px-5 py-4">
      <Title id={titleId} className="text-2xl font-bold break-words text-ink">
        {linked ? linked(event.eventTitle, { decorative: false }) : event.eventTitle}
      </Title>
      <ScheduleStatusBadge status={event.scheduleStatus} className="mt-2" />
      {details ?? <CardWhen date={date} times={event.times} />}
      <p className="mt-2 break-words whitespace-pre-line text-slate-700">{event.eventDescription}</p>
      <PracticalFactsList
        facts={event.facts}
        joinLink={joinLink}
        scheduleStatus={event.scheduleStatus}
        outbound={outbound}
      />
    </div>
  )
  const cardPhoto = (
    <CardPhoto
      key={photo ?? ''}
      src={photo}
      alt={event.eventTitle}
      businessName={event.businessName}
      priority={photoPriority}
    />
  )
  const photoBlock = (
    <div className={eventFirst ? 'px-5 pt-5' : 'px-5 pb-5'}>
      {photoFileName ? (
        <MediaPlaceholder kind="Photo" fileName={photoFileName} />
      ) : linked ? (
        linked(cardPhoto, { decorative: true })
      ) : (
        cardPhoto
      )}
    </div>
  )
  const videoBlock = videoFileName ? (
    <div className="px-5 pb-5">
      <MediaPlaceholder kind="Video" fileName={videoFileName} />
    </div>
  ) : video ? (
    <div className="px-5 pb-5">
      <CardVideo key={video} src={video} />
    </div>
  ) : null

  return (
    <article
      aria-labelledby={titleId}
      data-testid="customer-event-card"
      data-mode={mode}
      className={`overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm ${className}`}
    >
      {eventFirst ? (
        <>
          {photoBlock}
          {titleBlock}
          {videoBlock}
          {businessBlock}
        </>
      ) : (
        <>
          {businessBlock}
          {titleBlock}
          {photoBlock}
          {videoBlock}
        </>
      )}

      {mode === 'public' ? null : (
        <footer className="flex flex-col gap-3 border-t border-slate-200 px-5 py-4 sm:flex-row sm:justify-end">
          {actions ?? (
            <>
              <CardButton action={reject} variant="secondary" isReject>
                {reject?.label ?? rejectLabel(mode)}
              </CardButton>
              <CardButton action={approve} variant="primary">
                {approve?.label ?? approveLabel(mode, cost)}
              </CardButton>
            </>
          )}
        </footer>
      )}
    </article>
  )
}

/** "Sat, Nov 29 · 7:30 PM – 10 PM" with a date, "7:30 PM – 10 PM" without one; nothing for an undated all-day ad. */
function CardWhen({ date, times }: { date: string | null; times: CustomerEventCardData['times'] }) {
  const range = formatTimeRange(times)
  if (!date && !range) return null
  return (
    <p data-testid="card-when" className="mt-2 font-medium text-slate-800">
      {date ? <EventWhen date={date} times={times} /> : range}
    </p>
  )
}

function MediaPlaceholder({ kind, fileName }: { kind: 'Photo' | 'Video'; fileName: string }) {
  return (
    <p
      data-testid={`${kind.toLowerCase()}-placeholder`}
      className="grid min-h-32 place-items-center rounded-lg border-2 border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center text-sm text-slate-700"
    >
      <span>
        {kind}: <strong className="break-all">{fileName}</strong> — {MEDIA_PENDING_TEXT}
      </span>
    </p>
  )
}

function PhotoFallback({ businessName, hidden }: { businessName: string; hidden?: boolean }) {
  return (
    <div
      {...MEDIA_FALLBACK_PROPS}
      hidden={hidden}
      suppressHydrationWarning
      data-testid="photo-fallback"
      className="grid min-h-48 place-items-center rounded-lg bg-slate-900 px-6 py-12 text-center text-2xl font-bold break-words text-white"
    >
      {businessName}
    </div>
  )
}

// When the media fail to load, the page's media fallback script hides them and shows the fallback (works without
// hydration; suppressHydrationWarning because it may have done so before React hydrates).
function CardPhoto({
  src,
  alt,
  businessName,
  priority,
}: {
  src: string | null
  alt: string
  businessName: string
  priority?: PhotoPriority
}) {
  if (!src) return <PhotoFallback businessName={businessName} />
  return (
    <>
      <img
        {...MEDIA_PROPS}
        suppressHydrationWarning
        // The box is reserved before the photo arrives (4:3, at most 400 px high), so nothing below it moves.
        {...photoImgProps({
          src,
          sizes: CARD_PHOTO_SIZES,
          width: CARD_PHOTO_WIDTH,
          height: CARD_PHOTO_HEIGHT,
          priority,
        })}
        alt={alt}
        className="mx-auto h-auto max-h-[400px] w-full rounded-lg object-contain"
      />
      <PhotoFallback businessName={businessName} hidden />
    </>
  )
}

function CardVideo({ src }: { src: string }) {
  return (
    <video
      {...MEDIA_PROPS}
      suppressHydrationWarning
      controls
      preload="metadata"
      playsInline
      className="min-h-[400px] w-full rounded-lg bg-black"
    >
      <source src={src} type={videoTypeFromUrl(src)} />
    </video>
  )
}

const buttonClasses = {
  primary:
    'inline-flex items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60',
} as const

function CardButton({
  action,
  variant,
  isReject = false,
  children,
}: {
  action: CardButtonAction | undefined
  variant: keyof typeof buttonClasses
  isReject?: boolean
  children: ReactNode
}) {
  const className = buttonClasses[variant]

  function notify() {
    if (isReject) toast({ title: RETURNING_TO_EDIT_TEXT })
  }

  if (action?.href && !action.submit && !action.disabled) {
    return (
      <Link
        to={action.href}
        className={className}
        onClick={() => {
          notify()
          action.onClick?.()
        }}
      >
        {children}
      </Link>
    )
  }

  const submit = action?.submit
  return (
    <button
      type={submit ? 'submit' : 'button'}
      form={submit?.form}
      name={submit?.name}
      value={submit?.value}
      formAction={submit?.formAction}
      formMethod={submit?.formMethod}
      formEncType={submit?.formEncType}
      formNoValidate={isReject && submit ? true : undefined}
      disabled={!action || action.disabled}
      onClick={() => {
        notify()
        action?.onClick?.()
      }}
      className={className}
    >
      {children}
    </button>
  )
}
