import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  type AnyPgColumn,
  numeric,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core'

/** The "unset" date marker. */
const UNSET = sql`'1989-01-01'::date`
const createdNow = (name: string) =>
  timestamp(name, { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const business = pgTable(
  'business',
  {
    businessID: integer('businessID').primaryKey().generatedAlwaysAsIdentity(),
    createdAt: createdNow('createdAt'),
    businessName: varchar('businessName', { length: 255 }).notNull(),
    businessAddress: varchar('businessAddress', { length: 250 }).notNull().default(''),
    businessCity: varchar('businessCity', { length: 250 }).notNull().default(''),
    businessState: varchar('businessState', { length: 250 }).notNull().default(''),
    businessZip: varchar('businessZip', { length: 50 }).notNull().default(''),
    businessPhone: varchar('businessPhone', { length: 50 }).notNull().default(''),
    businessFax: varchar('businessFax', { length: 50 }).notNull().default(''),
    /** Stored lower-cased so the unique index is case-insensitive in practice. */
    businessEmail: varchar('businessEmail', { length: 150 }).notNull(),
    /** A password hash, never the password. */
    businessPassword: text('businessPassword').notNull().default(''),
    businessContact: varchar('businessContact', { length: 250 }).notNull().default(''),
    businessWebsite: varchar('businessWebsite', { length: 255 }).notNull().default(''),
    facebookURL: varchar('facebookURL', { length: 255 }).notNull().default(''),
    instagramURL: varchar('instagramURL', { length: 255 }).notNull().default(''),
    linkedin: varchar('linkedin', { length: 255 }).notNull().default(''),
    youtubeURL: varchar('youtubeURL', { length: 255 }).notNull().default(''),
    xURL: varchar('xURL', { length: 255 }).notNull().default(''),
    tiktokURL: varchar('tiktokURL', { length: 255 }).notNull().default(''),
    businessNameEmail: text('businessNameEmail').notNull().default(''),
    /**
     * The centre of the business's ZIP (from `zip_centroids`), set by the database whenever the ZIP is written, for
     * the calendar's distance filter; null when the ZIP is not a known US ZIP.
     */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** "Show my business page": its public page at /business/{id}-{slug} while it has a live ad (on by default). */
    showBusinessPage: boolean('showBusinessPage').notNull().default(true),
  },
  (t) => [
    uniqueIndex('business_email_unique').on(t.businessEmail),
    // The distance filter's bounding box: a latitude range, then the longitude range within it.
    index('business_location_idx').on(t.latitude, t.longitude),
  ],
)

/** The centre of each US ZIP (Census ZIP Code Tabulation Areas), loaded by a migration: see docs/decisions/012. */
export const zipCentroids = pgTable('zip_centroids', {
  zip: varchar('zip', { length: 5 }).primaryKey(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
})

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: varchar('email', { length: 255 }).notNull(),
    firstName: varchar('firstName', { length: 255 }).notNull().default(''),
    lastName: varchar('lastName', { length: 255 }).notNull().default(''),
    profileImageUrl: text('profileImageUrl').notNull().default(''),
    fullName: varchar('fullName', { length: 150 }).notNull().default(''),
    username: varchar('username', { length: 100 }),
    phone: varchar('phone', { length: 20 }).notNull().default(''),
    stripeCustomerId: text('stripeCustomerId'),
    stripeSubscriptionId: text('stripeSubscriptionId'),
    /** Staff roles: admin (moderation), clinician (patient records). */
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    businessID: integer('businessID').references(() => business.businessID, { onDelete: 'set null' }),
    createdAt: createdNow('createdAt'),
    updatedAt: createdNow('updatedAt'),
    lastLogin: timestamp('lastLogin', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), uniqueIndex('users_username_unique').on(t.username)],
)

export const sessions = pgTable(
  'sessions',
  {
    sid: varchar('sid', { length: 255 }).primaryKey(),
    sess: json('sess').$type<Record<string, unknown>>().notNull(),
    expire: timestamp('expire', { precision: 6, withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('IDX_session_expire').on(t.expire)],
)

export const categoryList = pgTable('categoryList', {
  categoryID: integer('categoryID').primaryKey().generatedAlwaysAsIdentity(),
  categoryName: varchar('categoryName', { length: 100 }).notNull().unique(),
  /** A hidden category is not offered for new ads nor in the calendar's filter; ads that have it keep it. */
  hidden: boolean('hidden').notNull().default(false),
})

/**
 * An ad's practical facts (app/models/ads/practical-facts.ts): tickets and price, where, accessibility and age. The same
 * columns on an ad and on its revision; `name` spells each column in its table's style.
 */
function practicalFactColumnsNamed(name: (camelCase: string) => string) {
  return {
    ticketUrl: varchar(name('ticketUrl'), { length: 500 }).notNull().default(''),
    /** null: not said; 0: free; otherwise the lowest price in cents. */
    priceCents: integer(name('priceCents')),
    /** in_person, online or mixed (both). */
    attendanceMode: varchar(name('attendanceMode'), { length: 20 }).notNull().default('in_person'),
    /** Another address for the event; all empty = the business's address. */
    venueAddress: varchar(name('venueAddress'), { length: 250 }).notNull().default(''),
    venueCity: varchar(name('venueCity'), { length: 100 }).notNull().default(''),
    venueState: varchar(name('venueState'), { length: 50 }).notNull().default(''),
    venueZip: varchar(name('venueZip'), { length: 10 }).notNull().default(''),
    onlineUrl: varchar(name('onlineUrl'), { length: 500 }).notNull().default(''),
    accessibilityFeatures: text(name('accessibilityFeatures'))
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    accessibilityNote: varchar(name('accessibilityNote'), { length: 500 }).notNull().default(''),
    accessibilityContact: varchar(name('accessibilityContact'), { length: 250 }).notNull().default(''),
    /** '', all_ages, 18+ or 21+. */
    ageRange: varchar(name('ageRange'), { length: 10 }).notNull().default(''),
  }
}

export const events = pgTable(
  'events',
  {
    eventID: integer('eventID').primaryKey().generatedAlwaysAsIdentity(),
    createdDate: createdNow('createdDate'),
    businessName: varchar('businessName', { length: 255 }).notNull().default(''),
    businessID: integer('businessID')
      .notNull()
      .references(() => business.businessID, { onDelete: 'cascade' }),
    eventTitle: varchar('eventTitle', { length: 250 }).notNull(),
    /** Category names; an ad has one or several. */
    category: text('category')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    showAdOnDates: date('showAdOnDates', { mode: 'string' })
      .array()
      .notNull()
      .default(sql`'{}'::date[]`),
    eventDate: date('eventDate', { mode: 'string' }).notNull().default(UNSET),
    /** Earliest and latest of eventDate (when set) and showAdOnDates, kept by the model for indexed date filters. */
    firstShowDate: date('firstShowDate', { mode: 'string' }),
    lastShowDate: date('lastShowDate', { mode: 'string' }),
    daysOrdered: numeric('daysOrdered', { mode: 'number' }).notNull().default(0),
    eventDescription: varchar('eventDescription', { length: 500 }).notNull(),
    stillPhotoURL: text('stillPhotoURL').notNull().default(''),
    videoURL: text('videoURL').notNull().default(''),
    totalCost: numeric('totalCost', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    contactPerson: varchar('contactPerson', { length: 250 }).notNull().default(''),
    contactEmail: varchar('contactEmail', { length: 150 }).notNull().default(''),
    contactPhone: varchar('contactPhone', { length: 50 }).notNull().default(''),
    approvedDateByBusiness: date('approvedDateByBusiness', { mode: 'string' }).notNull().default(UNSET),
    approvedDateByAdmin: date('approvedDateByAdmin', { mode: 'string' }).notNull().default(UNSET),
    paymentStatus: varchar('paymentStatus', { length: 20 }).notNull().default('pending'),
    eventStatus: varchar('eventStatus', { length: 20 }).notNull().default('pending'),
    payment_intent_id: text('payment_intent_id'),
    reviewedByUserId: uuid('reviewedByUserId').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewedAt', { withTimezone: true, mode: 'date' }),
    /** The reason of the last rejection or request for changes: what the advertiser reads. */
    rejectionReason: text('rejectionReason').notNull().default(''),
    /** Auto-approved as part of the sample: live, and listed for an administrator's check since then (null: none due). */
    checkPendingSince: timestamp('checkPendingSince', { withTimezone: true, mode: 'date' }),
    ...practicalFactColumnsNamed((camelCase) => camelCase),
    /** The centre of `venueZip` (from `zip_centroids`), set by the database like the business's: see 0016. */
    venueLatitude: doublePrecision('venueLatitude'),
    venueLongitude: doublePrecision('venueLongitude'),
    /**
     * Where "near me" places the ad: its venue's ZIP centre, else its business's. Kept by the database from both
     * (db/migrations/0022_event_place.sql), so the distance filter reads one indexed pair of the ad's own columns.
     */
    placeLatitude: doublePrecision('placeLatitude'),
    placeLongitude: doublePrecision('placeLongitude'),
    /**
     * When the event starts and ends on each of its dates (platform time zone, hh:mm:ss); no start = all day. An end
     * before the start ends after midnight (event-times.ts).
     */
    startTime: time('startTime'),
    endTime: time('endTime'),
    /** Whether a live ad is off: cancelled, postponed or sold_out (schedule-status.ts); null = as advertised. */
    scheduleStatus: varchar('scheduleStatus', { length: 20 }),
    /** The advertiser's short note to visitors with the status ("Moved to the gym"). */
    scheduleNote: varchar('scheduleNote', { length: 140 }).notNull().default(''),
    scheduleChangedAt: timestamp('scheduleChangedAt', { withTimezone: true, mode: 'date' }),
    /**
     * The iCalendar SEQUENCE of the ad's entries: raised by the database whenever what a calendar app shows changes
     * (its title, dates, times, place or status; db/migrations/0025_event_times_and_status.sql).
     */
    calendarSequence: integer('calendarSequence').notNull().default(0),
    /**
     * Shown in the calendar's Sponsored slots while live (sponsored-slots.ts): chosen at checkout, or bought later for
     * the remaining days. `sponsoredCents` is the surcharge in the ad's price; `sponsoredAt` when it was paid.
     */
    sponsored: boolean('sponsored').notNull().default(false),
    sponsoredCents: integer('sponsoredCents').notNull().default(0),
    sponsoredAt: timestamp('sponsoredAt', { withTimezone: true, mode: 'date' }),
    /** The promo code the advertiser applied at checkout, while the ad is unpaid (promo-code.ts); kept once paid. */
    promoCodeId: integer('promoCodeId').references((): AnyPgColumn => promoCodes.id, {
      onDelete: 'set null',
    }),
    /**
     * When what visitors see of the ad last changed (its status, schedule status, dates, times, texts, place, media):
     * set by the database on every such write (db/migrations/0031_visible_changes.sql); the sitemap's lastmod. Null
     * on ads not written since that migration.
     */
    visibleChangedAt: timestamp('visibleChangedAt', { withTimezone: true, mode: 'date' }),
    /**
     * A postponed ad given new dates: its next date before them (yyyy-mm-dd), for search engines' "rescheduled"
     * (app/models/ads/new-dates.ts). Null for an ad never rescheduled.
     */
    previousStartDate: date('previousStartDate', { mode: 'string' }),
  },
  (t) => [
    index('events_business_idx').on(t.businessID, t.createdDate),
    index('events_live_idx').on(t.eventStatus, t.paymentStatus, t.lastShowDate),
    index('events_pending_upload_idx')
      .on(t.createdDate)
      .where(sql`"eventStatus" = 'pending'`),
    index('events_show_dates_idx').using('gin', t.showAdOnDates),
    index('events_check_pending_idx')
      .on(t.checkPendingSince)
      .where(sql`"checkPendingSince" IS NOT NULL`),
    // The category and keyword filters only ever ask for live events: these cover approved, paid ads and carry the
    // last show date (btree_gin), so ads that are over, unpaid or refused are never read to be thrown away. A keyword
    // alone (or with a category or dates) reads `live_event_texts` instead.
    // Every ad, whatever its state: the administrators' category counts and renames.
    index('events_category_idx').using('gin', t.category),
    index('events_live_category_idx')
      .using('gin', t.category, t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid'`),
    // The subscribers' digests: the live ads approved since a subscriber's last email (the last date leaves out, in
    // the index, the ads that are over).
    index('events_live_reviewed_idx')
      .on(t.reviewedAt, t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid'`),
    index('events_live_description_trgm_idx')
      .using('gin', t.eventDescription.op('gin_trgm_ops'), t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid'`),
    // The practical facts' filters (Free, Online, accessibility) on live ads.
    index('events_live_accessibility_idx')
      .using('gin', t.accessibilityFeatures, t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid'`),
    index('events_live_free_idx')
      .on(t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "priceCents" = 0`),
    index('events_live_online_idx')
      .on(t.lastShowDate)
      .where(
        sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "attendanceMode" <> 'in_person'`,
      ),
    // "Near me": the live ads in a latitude band, their longitude and last date read from the index.
    index('events_live_place_idx')
      .on(t.placeLatitude, t.placeLongitude, t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "placeLatitude" IS NOT NULL`),
    // A business's page: whether it has a live ad, its live ads and its past ones, read by business.
    index('events_live_business_idx')
      .on(t.businessID, t.lastShowDate)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid'`),
    // "Hide cancelled" and the digests' changes read the few ads that are off.
    index('events_schedule_status_idx')
      .on(t.scheduleStatus, t.lastShowDate)
      .where(sql`"scheduleStatus" IS NOT NULL`),
    // The Sponsored slots: the few live sponsored ads, in id order (the rotation's order).
    index('events_live_sponsored_idx')
      .on(t.lastShowDate, t.eventID)
      .where(sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "sponsored"`),
  ],
)

/**
 * An advertiser's edit of a live ad's text and media, waiting for an administrator while the live version stays up.
 * At most one is open (pending, or sent back with changes requested) per event. Its media are stored under keys of
 * their own (`…_ID-rN.ext`), private until the revision is approved and they become the ad's. Empty media = unchanged.
 */
export const eventRevisions = pgTable(
  'event_revisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    eventID: integer('event_id')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    /** When the advertiser last sent it for review: its day in the review queue. */
    submittedAt: createdNow('submitted_at'),
    /** pending, approved, rejected or changes_requested. */
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    eventTitle: varchar('event_title', { length: 250 }).notNull(),
    eventDescription: varchar('event_description', { length: 500 }).notNull(),
    category: text('category')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    contactPerson: varchar('contact_person', { length: 250 }).notNull().default(''),
    contactEmail: varchar('contact_email', { length: 150 }).notNull().default(''),
    contactPhone: varchar('contact_phone', { length: 50 }).notNull().default(''),
    stillPhotoURL: text('still_photo_url').notNull().default(''),
    videoURL: text('video_url').notNull().default(''),
    ...practicalFactColumnsNamed((camelCase) => camelCase.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
    startTime: time('start_time'),
    endTime: time('end_time'),
    reason: text('reason').notNull().default(''),
    reviewedByUserId: uuid('reviewed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('event_revisions_open_idx')
      .on(t.eventID)
      .where(sql`"status" in ('pending', 'changes_requested')`),
    index('event_revisions_event_idx').on(t.eventID, t.id),
    index('event_revisions_pending_idx')
      .on(t.submittedAt)
      .where(sql`"status" = 'pending'`),
  ],
)

export type EventRevision = typeof eventRevisions.$inferSelect

/**
 * Every show date (the display dates and the event date) of each event that is approved and paid, with the event's
 * show date before it, so that "the event's next show date from today" is one row found by the date index: the row
 * whose date is today or later and whose previous date is before today (or none). Kept in step with `events` by the
 * trigger `events_show_dates_sync` (db/migrations/0006_event_show_dates.sql, rewritten in 0014), in the same transaction as any write.
 */
export const eventShowDates = pgTable(
  'event_show_dates',
  {
    eventID: integer('event_id')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    showDate: date('show_date', { mode: 'string' }).notNull(),
    previousDate: date('previous_date', { mode: 'string' }),
    /** The event's categories, so a walk of the date index filters by category without reading the event. */
    category: text('category')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * Whether the month grid lists the event on this day: it has no date of its own, or this is that date (the
     * rows hold both its display dates and its own date).
     */
    gridDay: boolean('grid_day').notNull().default(true),
    /** The event's last date (its last row): the event is live while this is today or later. */
    lastDate: date('last_date', { mode: 'string' }).notNull(),
    /** The event's start time (null: all day), so a day's events are listed all-day first, then by time. */
    startTime: time('start_time'),
  },
  (t) => [
    primaryKey({ columns: [t.eventID, t.showDate] }),
    index('event_show_dates_date_idx').on(t.showDate, t.eventID, t.previousDate),
    // The listing's walk in date, then time order (all-day first).
    index('event_show_dates_time_idx').on(
      t.showDate,
      t.startTime.asc().nullsFirst(),
      t.eventID,
      t.previousDate,
    ),
    // The month grid's days read from the rows alone: who shows on a day, first by id, and whether still live.
    index('event_show_dates_grid_idx')
      .on(t.showDate, t.eventID, t.lastDate, t.category)
      .where(sql`grid_day`),
    // The month grid's days in time order (all-day first).
    index('event_show_dates_grid_time_idx')
      .on(t.showDate, t.startTime.asc().nullsFirst(), t.eventID, t.lastDate, t.category)
      .where(sql`grid_day`),
  ],
)

/**
 * What the keyword filter searches: the description of each approved, paid ad, lower-cased, with the little the
 * calendar needs to answer a keyword without reading the ad (its categories, its last date, the days the month grid
 * lists it on). A narrow table of live ads only, so a trigram match reads few pages and compares with a plain LIKE
 * (`lower(description) LIKE lower(pattern)` is ILIKE's meaning). Kept by a trigger on `events`
 * (db/migrations/0021_live_event_texts.sql); ads over for two days or more are left out (they are over in every time
 * zone), and the hourly maintenance removes them.
 */
export const liveEventTexts = pgTable(
  'live_event_texts',
  {
    eventID: integer('event_id')
      .primaryKey()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    category: text('category').array().notNull(),
    lastDate: date('last_date', { mode: 'string' }).notNull(),
    /** The days the month grid lists the ad on: its own date when it has one, else its display dates. */
    gridDates: date('grid_dates', { mode: 'string' }).array().notNull(),
    /** The ad's start time (null = all day), so the month grid orders a day's matches without reading the ads. */
    startTime: time('start_time'),
  },
  (t) => [index('live_event_texts_description_idx').using('gin', t.description.op('gin_trgm_ops'))],
)

/**
 * How many approved, paid events have a show date with a given date before it, per category ('' = every event
 * once): `event_show_dates` summed by (category, show_date, previous_date). An event has a date in a window that
 * starts today or later exactly when one of its rows lies in the window and the row's previous date is before the
 * window's start, so the number of such events is a sum over this table's rows for the window: its size follows the
 * calendar's days, not the number of events. Kept by the same trigger as `event_show_dates`
 * (db/migrations/0014_show_date_counts.sql, 0015_month_grid_counts.sql); `previous_date` is '-infinity' for an
 * event's first date.
 */
export const showDateCounts = pgTable(
  'show_date_counts',
  {
    category: text('category').notNull(),
    showDate: date('show_date', { mode: 'string' }).notNull(),
    previousDate: date('previous_date', { mode: 'string' }).notNull(),
    /** The rows' `grid_day`: summed over both, the listing's counts; the true ones, the month grid's per day. */
    gridDay: boolean('grid_day').notNull(),
    events: integer('events').notNull(),
  },
  (t) => [primaryKey({ columns: [t.category, t.showDate, t.previousDate, t.gridDay] })],
)

export const eventMedia = pgTable(
  'event_media',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    eventID: integer('eventId')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    mediaType: varchar('mediaType', { length: 10 }).notNull(),
    mediaUrl: varchar('mediaUrl', { length: 255 }).notNull(),
    uploadedAt: createdNow('uploadedAt'),
  },
  (t) => [
    index('event_media_event_idx').on(t.eventID),
    check('event_media_type_check', sql`${t.mediaType} in ('photo', 'video')`),
  ],
)

export const payments = pgTable(
  'payments',
  {
    paymentID: integer('paymentID').primaryKey().generatedAlwaysAsIdentity(),
    eventID: integer('eventID')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    totalCost: numeric('totalCost', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    totalPaid: numeric('totalPaid', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    datePaid: timestamp('datePaid', { withTimezone: true, mode: 'date' }),
    payment_intent_id: text('payment_intent_id').unique(),
    checkout_session_id: text('checkout_session_id'),
    stripe_charge_id: text('stripe_charge_id'),
    stripe_customer_id: text('stripe_customer_id'),
    idempotency_key: text('idempotency_key').unique(),
    currency: varchar('currency', { length: 3 }).notNull().default('usd'),
    amount_due_cents: integer('amount_due_cents').notNull().default(0),
    amount_paid_cents: integer('amount_paid_cents').notNull().default(0),
    amount_refunded_cents: integer('amount_refunded_cents').notNull().default(0),
    payment_status: varchar('payment_status', { length: 30 }).notNull().default('pending'),
    paid_at: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    payment_expires_at: timestamp('payment_expires_at', { withTimezone: true, mode: 'date' }),
    payment_method_id: text('payment_method_id'),
    card_brand: varchar('card_brand', { length: 30 }),
    card_last4: varchar('card_last4', { length: 4 }),
    card_exp_month: integer('card_exp_month'),
    card_exp_year: integer('card_exp_year'),
    receipt_url: text('receipt_url'),
    receipt_email: text('receipt_email'),
    webhook_last_event_id: text('webhook_last_event_id'),
    webhook_last_received_at: timestamp('webhook_last_received_at', { withTimezone: true, mode: 'date' }),
    error_code: text('error_code'),
    error_message: text('error_message'),
    latest_provider_event: jsonb('latest_provider_event'),
    metadata: jsonb('metadata'),
    created_at: createdNow('created_at'),
    updated_at: createdNow('updated_at'),
  },
  (t) => [index('payments_event_idx').on(t.eventID)],
)

export const clickCount = pgTable(
  'clickCount',
  {
    clickCountid: integer('clickCountid').primaryKey().generatedAlwaysAsIdentity(),
    created_at: createdNow('created_at'),
    businessID: integer('businessID')
      .notNull()
      .references(() => business.businessID, { onDelete: 'cascade' }),
    eventID: integer('eventID')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    /** A keyed hash of the visitor's IP address, never the address itself. */
    userIPaddress: varchar('userIPaddress', { length: 128 }).notNull().default(''),
    clickDate: date('clickDate', { mode: 'string' })
      .notNull()
      .default(sql`CURRENT_DATE`),
    bounceClick: boolean('bounceClick').notNull().default(false),
    /** A click on the ad in a Sponsored slot (counted apart as `slotClicks` too). */
    fromSponsoredSlot: boolean('fromSponsoredSlot').notNull().default(false),
    /** A scan of the ad's QR code (`/event/{id}/qr`): counted as `scans`, not as a click. */
    qrScan: boolean('qrScan').notNull().default(false),
  },
  (t) => [
    index('click_event_date_idx').on(t.eventID, t.clickDate),
    index('click_business_date_idx').on(t.businessID, t.clickDate),
  ],
)

/**
 * Each ad's figures per day (platform time zone): views counted in memory by every server and added in batches,
 * clicks and bounces added by the trigger `click_count_daily_stats` for every row written to clickCount
 * (db/migrations/0009_event_daily_stats.sql). What the dashboard, the ad's page and the analytics call read.
 */
export const eventDailyStats = pgTable(
  'event_daily_stats',
  {
    eventID: integer('eventID')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    businessID: integer('businessID')
      .notNull()
      .references(() => business.businessID, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    bounces: integer('bounces').notNull().default(0),
    /** Of the views and clicks, those in a Sponsored slot (an appearance there, a click from there). */
    slotViews: integer('slotViews').notNull().default(0),
    slotClicks: integer('slotClicks').notNull().default(0),
    /** Scans of the ad's QR code (a source of its own, not among the clicks). */
    scans: integer('scans').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.eventID, t.day] }),
    index('event_daily_stats_business_idx').on(t.businessID, t.day),
  ],
)

export const ptdisease = pgTable(
  'ptdisease',
  {
    ptdiseaseID: integer('ptdiseaseID').primaryKey().generatedAlwaysAsIdentity(),
    created_at: createdNow('created_at'),
    patientnumber: integer('patientnumber'),
    mrn: varchar('mrn', { length: 50 }).notNull(),
    sexpatient: varchar('sexpatient', { length: 10 }),
    dob: date('dob', { mode: 'string' }),
    disease: varchar('disease', { length: 255 }).notNull(),
    diseasecode: varchar('diseasecode', { length: 50 }).notNull().default(''),
    diseasecodesigdig: varchar('diseasecodesigdig', { length: 50 }).notNull().default(''),
    organsystem: varchar('organsystem', { length: 100 }).notNull().default(''),
    longshortproblem: varchar('longshortproblem', { length: 50 }).notNull().default(''),
    ptnumberdiseasecode: varchar('ptnumberdiseasecode', { length: 100 }).notNull().default(''),
    ptnumberdiseasecodesigdig: varchar('ptnumberdiseasecodesigdig', { length: 100 }).notNull().default(''),
    dateentered: date('dateentered', { mode: 'string' }),
    lastreviewed: date('lastreviewed', { mode: 'string' }),
    reviewInterval: integer('reviewInterval'),
    comment: text('comment').notNull().default(''),
    choose: boolean('choose').notNull().default(false),
    dateDue: date('dateDue', { mode: 'string' }),
    finished: boolean('finished').notNull().default(false),
    dxusedforcharge: boolean('dxusedforcharge').notNull().default(false),
    resolved: boolean('resolved').notNull().default(false),
    ptanswered: boolean('ptanswered').notNull().default(false),
    CDMok: boolean('CDMok').notNull().default(false),
    controlledCDM: boolean('controlledCDM').notNull().default(false),
    questionsToAsk: integer('questionsToAsk').notNull().default(0),
  },
  (t) => [
    index('ptdisease_mrn_trgm_idx').using('gin', t.mrn.op('gin_trgm_ops')),
    index('ptdisease_disease_trgm_idx').using('gin', t.disease.op('gin_trgm_ops')),
    index('ptdisease_code_trgm_idx').using('gin', t.diseasecode.op('gin_trgm_ops')),
    index('ptdisease_organ_trgm_idx').using('gin', t.organsystem.op('gin_trgm_ops')),
    index('ptdisease_patientnumber_idx').on(t.patientnumber),
  ],
)

export type Business = typeof business.$inferSelect
export type User = typeof users.$inferSelect
export type Event = typeof events.$inferSelect
export type NewEvent = typeof events.$inferInsert
export type EventMedia = typeof eventMedia.$inferSelect
export type Payment = typeof payments.$inferSelect
export type Category = typeof categoryList.$inferSelect
export type ClickCount = typeof clickCount.$inferSelect
export type EventDailyStats = typeof eventDailyStats.$inferSelect
export type PtDisease = typeof ptdisease.$inferSelect

/** Failed sign-in attempts per key (email + IP) inside a sliding window, for rate limiting. */
export const authAttempts = pgTable('auth_attempts', {
  key: varchar('key', { length: 255 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('windowStartedAt', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

/** Append-only trail of who saw or changed patient records (a trigger refuses UPDATE and DELETE). */
export const ptdiseaseAudit = pgTable(
  'ptdisease_audit',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: createdNow('occurredAt'),
    userId: uuid('userId'),
    userEmail: varchar('userEmail', { length: 255 }).notNull().default(''),
    action: varchar('action', { length: 20 }).notNull(),
    /** No foreign key: the trail outlives a deleted record. */
    ptdiseaseID: integer('ptdiseaseID'),
    changes: jsonb('changes'),
  },
  (t) => [index('ptdisease_audit_record_idx').on(t.ptdiseaseID, t.occurredAt)],
)

export type PtDiseaseAudit = typeof ptdiseaseAudit.$inferSelect

/**
 * Append-only trail of every moderation decision (a trigger refuses UPDATE and DELETE, as for the patient records):
 * who (`actorUserId`/`actorEmail`; none for the platform's own decisions), when, what (`action` on an ad or a
 * business) and why.
 */
export const moderationAudit = pgTable(
  'moderation_audit',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: createdNow('occurredAt'),
    actorUserId: uuid('actorUserId'),
    actorEmail: varchar('actorEmail', { length: 255 }).notNull().default(''),
    action: varchar('action', { length: 30 }).notNull(),
    /** No foreign keys: the trail outlives the ad and the business. */
    eventID: integer('eventID'),
    businessID: integer('businessID'),
    /** The decision was on a pending edit of a live ad. */
    revision: boolean('revision').notNull().default(false),
    reason: text('reason').notNull().default(''),
  },
  (t) => [
    index('moderation_audit_event_idx').on(t.eventID, t.occurredAt),
    index('moderation_audit_occurred_idx').on(t.occurredAt),
    // /admin/audit's filters, newest first: one administrator's decisions, one kind of decision.
    index('moderation_audit_actor_idx').on(t.actorUserId, t.occurredAt),
    index('moderation_audit_action_idx').on(t.action, t.occurredAt),
  ],
)

export type ModerationAuditEntry = typeof moderationAudit.$inferSelect

/**
 * Visitors' reports of an ad. A visitor is a keyed hash of their address (`reporterKey`, never the address); one open
 * report per visitor and ad. Open until an administrator dismisses the ad's reports or takes the ad down (upheld).
 */
export const adReports = pgTable(
  'ad_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    createdAt: createdNow('createdAt'),
    eventID: integer('eventID')
      .notNull()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    reporterKey: varchar('reporterKey', { length: 64 }).notNull(),
    reason: varchar('reason', { length: 20 }).notNull(),
    details: varchar('details', { length: 1000 }).notNull().default(''),
    /** open, dismissed, upheld. */
    status: varchar('status', { length: 10 }).notNull().default('open'),
    resolvedAt: timestamp('resolvedAt', { withTimezone: true, mode: 'date' }),
    resolvedByUserId: uuid('resolvedByUserId').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('ad_reports_open_per_visitor_unique')
      .on(t.eventID, t.reporterKey)
      .where(sql`"status" = 'open'`),
    index('ad_reports_open_idx')
      .on(t.eventID, t.createdAt)
      .where(sql`"status" = 'open'`),
    check('ad_reports_status_check', sql`${t.status} in ('open', 'dismissed', 'upheld')`),
    check(
      'ad_reports_reason_check',
      sql`${t.reason} in ('misleading', 'offensive', 'spam', 'wrong_date_or_place', 'other')`,
    ),
  ],
)

export type AdReport = typeof adReports.$inferSelect

/** The last run of each scheduled job, shared by every server, so a job runs once per period across all of them. */
export const jobRuns = pgTable('job_runs', {
  name: varchar('name', { length: 64 }).primaryKey(),
  startedAt: timestamp('startedAt', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finishedAt', { withTimezone: true, mode: 'date' }),
  runs: integer('runs').notNull().default(1),
})

/**
 * Where each background backfill (docs/decisions/041) stands: the last key it filled up to, the rows it has gone
 * through, when it started and finished. A batch and its line here are written in one transaction, so a server that
 * stops mid-way leaves the next one to continue from the last batch it committed.
 */
export const backfillRuns = pgTable('backfill_runs', {
  name: varchar('name', { length: 128 }).primaryKey(),
  lastKey: bigint('lastKey', { mode: 'number' }).notNull().default(0),
  rowsDone: bigint('rowsDone', { mode: 'number' }).notNull().default(0),
  startedAt: timestamp('startedAt', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  finishedAt: timestamp('finishedAt', { withTimezone: true, mode: 'date' }),
})

/**
 * Email waiting to be sent, written in the same transaction as the change it tells about, so a message exists exactly
 * when its change does. The mail worker claims due rows (`FOR UPDATE SKIP LOCKED`), sends them over SMTP and marks
 * them sent; a failure is retried with exponential backoff. `dedupeKey` makes an enqueue idempotent where the same
 * change can be recorded twice (a refund reported by both the provider's webhook and the refund call).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    createdAt: createdNow('createdAt'),
    kind: varchar('kind', { length: 40 }).notNull(),
    dedupeKey: text('dedupeKey'),
    toAddress: text('toAddress').notNull(),
    subject: text('subject').notNull(),
    textBody: text('textBody').notNull(),
    htmlBody: text('htmlBody').notNull(),
    /** pending (due at nextAttemptAt), sending (claimed until nextAttemptAt), sent, failed (gave up). */
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('nextAttemptAt', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('lastError'),
    sentAt: timestamp('sentAt', { withTimezone: true, mode: 'date' }),
    /** Extra headers of the message, e.g. a subscriber email's List-Unsubscribe (RFC 8058); null = none. */
    headers: jsonb('headers').$type<Record<string, string>>(),
  },
  (t) => [
    uniqueIndex('outbox_dedupe_key_unique').on(t.dedupeKey),
    index('outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`"status" in ('pending', 'sending')`),
    // The hourly purge of old mail reads only the rows past their retention, not the whole outbox.
    index('outbox_sent_idx')
      .on(t.sentAt)
      .where(sql`"status" = 'sent'`),
    index('outbox_failed_idx')
      .on(t.createdAt)
      .where(sql`"status" = 'failed'`),
    check('outbox_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
  ],
)

export type OutboxMessage = typeof outbox.$inferSelect

/**
 * A visitor's email subscription, without an account: a saved search of the calendar (`search`: a weekly digest or
 * a daily batch of the ads gone live since the last email), a reminder the day before one event (`reminder`), or
 * the new live ads of one business (`business`: "Email me new events from …", daily). The
 * address is kept only here and in the outbox; a subscription is unconfirmed (`confirmedAt` null) until its
 * confirmation link is followed and is deleted after 7 days if it never is. Unsubscribing deletes the row.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    createdAt: createdNow('createdAt'),
    /** Trimmed and lower-cased. */
    email: varchar('email', { length: 254 }).notNull(),
    kind: varchar('kind', { length: 10 }).notNull(),
    /** weekly | daily for a search; once for a reminder. */
    frequency: varchar('frequency', { length: 10 }).notNull(),
    /** The calendar's filters without dates (a search); the empty filters for a reminder. */
    filters: jsonb('filters').notNull(),
    /** What makes two subscriptions the same: the filters' query string, `event:<id>` or `business:<id>`. */
    filterKey: text('filterKey').notNull(),
    eventID: integer('eventId').references(() => events.eventID, { onDelete: 'cascade' }),
    /** The business followed (kind `business`). */
    businessID: integer('businessId').references(() => business.businessID, { onDelete: 'cascade' }),
    confirmedAt: timestamp('confirmedAt', { withTimezone: true, mode: 'date' }),
    /** Ads approved up to this instant have been told about (a search, a follow); set at confirmation and by each email. */
    coveredUntil: timestamp('coveredUntil', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('subscriptions_email_filter_unique').on(t.email, t.filterKey),
    index('subscriptions_confirmed_idx')
      .on(t.kind, t.frequency, t.id)
      .where(sql`"confirmedAt" IS NOT NULL`),
    index('subscriptions_unconfirmed_idx')
      .on(t.createdAt)
      .where(sql`"confirmedAt" IS NULL`),
    index('subscriptions_event_idx').on(t.eventID),
    index('subscriptions_business_idx').on(t.businessID),
    check('subscriptions_kind_check', sql`${t.kind} in ('search', 'reminder', 'business')`),
    check('subscriptions_frequency_check', sql`${t.frequency} in ('weekly', 'daily', 'once')`),
  ],
)

export type Subscription = typeof subscriptions.$inferSelect

/** Each run of the digest and reminder jobs: when, for how long and how many emails it queued (/admin/subscriptions). */
export const subscriptionRuns = pgTable(
  'subscription_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    job: varchar('job', { length: 20 }).notNull(),
    startedAt: timestamp('startedAt', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('durationMs').notNull(),
    /** Subscriptions looked at, and emails queued. */
    checked: integer('checked').notNull(),
    queued: integer('queued').notNull(),
  },
  (t) => [index('subscription_runs_job_idx').on(t.job, t.startedAt)],
)

/**
 * The price list, one row per version (append-only): the current prices are the newest row (read by its primary
 * key), the older rows are the history of who changed what and when. Money in whole cents.
 */
export const priceLists = pgTable(
  'price_lists',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The price of an ad by its number of display days: `[{ upToDays, cents }]`, `upToDays` increasing. */
    tiers: jsonb('tiers').$type<Array<{ upToDays: number; cents: number }>>().notNull(),
    sponsoredCentsPerDay: integer('sponsoredCentsPerDay').notNull().default(500),
    sponsoredSlots: integer('sponsoredSlots').notNull().default(2),
    /** The categories listed free and what a free listing includes: `[{ categoryID, maxDates, photo, video }]`. */
    freeListings: jsonb('freeListings')
      .$type<Array<{ categoryID: number; maxDates: number; photo: boolean; video: boolean }>>()
      .notNull()
      .default([]),
    /** The categories priced apart, by category id: `{ "<id>": [{ upToDays, cents }] }`; any other has `tiers`. */
    categoryTiers: jsonb('categoryTiers')
      .$type<Record<string, Array<{ upToDays: number; cents: number }>>>()
      .notNull()
      .default({}),
    createdAt: createdNow('createdAt'),
    changedByUserId: uuid('changedByUserId').references(() => users.id, { onDelete: 'set null' }),
    /** Copied, so the history still names who changed the prices if the account goes. */
    changedByEmail: varchar('changedByEmail', { length: 255 }).notNull().default(''),
    note: text('note').notNull().default(''),
  },
  (t) => [
    check('price_lists_sponsored_cents_check', sql`${t.sponsoredCentsPerDay} >= 0`),
    check('price_lists_sponsored_slots_check', sql`${t.sponsoredSlots} >= 0`),
  ],
)

export type PriceListRow = typeof priceLists.$inferSelect

/**
 * The hosts' promo codes: a percentage or a fixed amount off an ad's list price. Never deleted: a code is turned
 * off (`active`), so receipts and the history keep naming it.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stored upper-case: what the advertiser types is matched whatever its case. */
    code: varchar('code', { length: 32 }).notNull().unique(),
    /** 'percent' (value 1–100) or 'fixed' (value in cents). */
    kind: varchar('kind', { length: 10 }).notNull(),
    value: integer('value').notNull(),
    expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }),
    /** How many ads may use it in all; null = no limit. */
    maxUses: integer('maxUses'),
    firstAdOnly: boolean('firstAdOnly').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: createdNow('createdAt'),
    createdByUserId: uuid('createdByUserId').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('promo_codes_kind_check', sql`${t.kind} in ('percent', 'fixed')`),
    check('promo_codes_value_check', sql`${t.value} > 0 and (${t.kind} <> 'percent' or ${t.value} <= 100)`),
    check('promo_codes_max_uses_check', sql`${t.maxUses} is null or ${t.maxUses} > 0`),
  ],
)

export type PromoCodeRow = typeof promoCodes.$inferSelect

/** Every change of a promo code, append-only: who, when, what. */
export const promoCodeChanges = pgTable(
  'promo_code_changes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promoCodeId: integer('promoCodeId')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    /** 'created' or 'turned_off'. */
    change: varchar('change', { length: 20 }).notNull(),
    /** What the code was after the change, in words. */
    details: text('details').notNull().default(''),
    changedAt: createdNow('changedAt'),
    changedByUserId: uuid('changedByUserId').references(() => users.id, { onDelete: 'set null' }),
    /** Copied, so the history still names who changed the code if the account goes. */
    changedByEmail: varchar('changedByEmail', { length: 255 }).notNull().default(''),
  },
  (t) => [index('promo_code_changes_code_idx').on(t.promoCodeId, t.changedAt)],
)

/**
 * A use of a promo code by an ad: reserved when the ad's payment is set up, redeemed when it is paid. One per ad and
 * one per code and business ("once per business"); a reservation goes when the advertiser removes the code or the
 * unpaid ad is removed.
 */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promoCodeId: integer('promoCodeId')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    businessID: integer('businessID')
      .notNull()
      .references(() => business.businessID, { onDelete: 'cascade' }),
    eventID: integer('eventID')
      .notNull()
      .unique()
      .references(() => events.eventID, { onDelete: 'cascade' }),
    paymentID: integer('paymentID').references(() => payments.paymentID, { onDelete: 'set null' }),
    discountCents: integer('discountCents').notNull(),
    /** 'reserved' or 'redeemed'. */
    status: varchar('status', { length: 10 }).notNull().default('reserved'),
    createdAt: createdNow('createdAt'),
    redeemedAt: timestamp('redeemedAt', { withTimezone: true, mode: 'date' }),
    /**
     * Until when a reserved use is held for the ad's payment under way; past it, the use is free again. Empty on the
     * rows of the release before, whose reservations are held for PROMO_HOLD_MINUTES after `createdAt`.
     */
    reservedUntil: timestamp('reservedUntil', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('promo_redemptions_code_business_idx').on(t.promoCodeId, t.businessID),
    check('promo_redemptions_discount_check', sql`${t.discountCents} >= 0`),
  ],
)

/**
 * The live ads whose public page changed (went live, changed or ended) and that IndexNow has not been told of yet:
 * one row per ad, written by the database with the change (db/migrations/0031_visible_changes.sql) or by the daily
 * look for ads that ended, and removed once the ping that named it was accepted (app/services/calendar/index-now).
 * `previousTitle` is the title when it was queued, so a page whose address changed with its title is named at both.
 */
export const indexNowQueue = pgTable('index_now_queue', {
  eventID: integer('event_id')
    .primaryKey()
    .references(() => events.eventID, { onDelete: 'cascade' }),
  queuedAt: timestamp('queued_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  previousTitle: varchar('previous_title', { length: 250 }),
})
