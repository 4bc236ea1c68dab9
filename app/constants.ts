/** Business limits and constants of the product, shared by UI, validation and tests. */

export const PRODUCT_NAME = 'EventShout'
export const TAGLINE = 'Every Event Deserves a Shout.'

/** The 1989-01-01 marker means "no date set". */
export const UNSET_DATE = '1989-01-01'
export const OPEN_ENDED_DATE_LIMIT = '2100-12-31'

export const MAX_DISPLAY_DATES = 21
/** How far ahead (in days from today) a display date or event date may lie: a live ad must end some day. */
export const DATE_HORIZON_DAYS = 365
export const MIN_AD_DAYS_MARKETING = 7
export const TITLE_MAX = 250
export const DESCRIPTION_MAX = 500
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024
export const VIDEO_MAX_BYTES = 50 * 1024 * 1024

export const BOUNCE_WINDOW_MS = 5000
export const FEATURED_EVENTS_LIMIT = 10
export const GALLERY_SCROLL_STEP_PX = 300
export const GALLERY_ARROWS_ABOVE = 3

export const FULL_NAME_MAX = 150
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 50

export const MEDIA_TYPES = ['photo', 'video'] as const
export type MediaType = (typeof MEDIA_TYPES)[number]

export const DELAY_TO_CHECKOUT_MS = 500
export const DELAY_AFTER_PAYMENT_MS = 2000
export const DELAY_AFTER_REGISTRATION_MS = 2100

export const TOAST_LIMIT = 1
export const TOAST_DURATION_MS = 5000
export const TOAST_REMOVE_DELAY_MS = 2000
export const TOAST_SWIPE_THRESHOLD_PX = 50
export const TOAST_HOTKEY = ['F8'] as const
export const TOAST_CLOSE_LABEL = 'Dismiss'
export const TOAST_VARIANTS = ['default', 'destructive'] as const
export type ToastVariant = (typeof TOAST_VARIANTS)[number]

export const EVENT_STATUSES = ['pending', 'approved', 'rejected'] as const
export type EventStatus = (typeof EVENT_STATUSES)[number]
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const STAFF_ROLES = ['admin', 'clinician'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

/**
 * The categories every install starts with, added by migration 0004_default_categories (a test keeps the two in
 * step; a change here needs a new migration).
 */
export const DEFAULT_CATEGORIES = [
  'Concert',
  'Fundraiser',
  'Grand Opening',
  'Special',
  'Community',
  'Food & Drink',
  'Sports',
  'Arts',
  'Family',
  'Nightlife',
  'Other',
] as const

/** Accounts one address may register per hour unless REGISTRATIONS_PER_ADDRESS_PER_HOUR says otherwise. */
export const DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR = 20
/** A registration form posted sooner than this after it was drawn is a robot's (a person needs longer to fill it). */
export const SIGNUP_MIN_FILL_MS = 3000
/** The report form's minimum fill time: a report is short, so a person may send it sooner than a registration. */
export const REPORT_MIN_FILL_MS = 1500
/** A registration form drawn longer ago than this is refused too (its stamp could otherwise be replayed forever). */
export const SIGNUP_FORM_MAX_AGE_MS = 24 * 60 * 60 * 1000
/** The registration form's honeypot: hidden from people and screen readers, left empty by them, filled by bots. */
export const SIGNUP_HONEYPOT_FIELD = 'nickname'
/** The registration form's signed moment of drawing, for the minimum fill time. */
export const SIGNUP_STARTED_FIELD = 'formStartedAt'
/** The registration form's stamp travels in a cookie, so the page's script and data stay as small as they were. */
export const SIGNUP_STAMP_COOKIE = 'signup_started'
/** A JSON, url-encoded or plain-text request body may be at most this big (checked before it is read). */
export const BODY_MAX_BYTES = 1024 * 1024
/** The record-shaped JSON calls (POST /api/events, the patient records) take at most this much. */
export const JSON_BODY_MAX_BYTES = 256 * 1024
/** A multipart body: one photo, one video and the text fields around them. */
export const MULTIPART_BODY_MAX_BYTES = PHOTO_MAX_BYTES + VIDEO_MAX_BYTES + 10 * 1024 * 1024
