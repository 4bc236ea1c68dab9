import { UNSET_DATE } from '#app/constants.ts'
import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { PHOTO_SRCSET_WIDTHS, photoVariantKey } from '#app/utils/media-types.ts'
import {
  chargeCentsFor,
  DEFAULT_PRICE_LIST,
  sponsoredSurchargeCentsFor,
} from '#app/models/payments/price-list.ts'
import { DEFAULT_FREE_ALLOWANCE } from '#app/models/payments/free-listing.ts'
import { centsToDollars } from '#app/utils/pricing.ts'
import { addDaysIso, isoDateInZone, todayInZone } from '#app/utils/time.ts'
import type { Database, Transaction } from './client.server.ts'
import {
  DEMO_BUSINESSES,
  DEMO_EVENT_IDEAS,
  DEMO_FREE_CATEGORY,
  DEMO_FREE_LISTINGS,
  DEMO_FREE_ORGANISATION,
  DEMO_STAFF,
  DEMO_ZIPS,
} from './demo-data.ts'
import { insertBusiness, insertUser } from './factories.ts'
import { business, categoryList, clickCount, eventMedia, events, payments, priceLists } from './schema.ts'

const PALETTES = [
  ['#f97316', '#7c2d12'],
  ['#0ea5e9', '#1e3a8a'],
  ['#22c55e', '#14532d'],
  ['#a855f7', '#3b0764'],
  ['#ef4444', '#450a0a'],
  ['#eab308', '#713f12'],
] as const

function escapeXml(text: string) {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A poster-style photo made on the spot, so no binary files live in the repository. */
async function makePoster(title: string, index: number) {
  const [from, to] = PALETTES[index % PALETTES.length]!
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1200" height="675" fill="url(#g)"/>
    <circle cx="${900 + (index % 3) * 60}" cy="${160 + (index % 4) * 40}" r="220" fill="#fff" fill-opacity="0.08"/>
    <text x="80" y="380" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="700" fill="#fff">${escapeXml(title)}</text>
  </svg>`
  return sharp(Buffer.from(svg)).webp({ quality: 78 }).toBuffer()
}

function mediaKeyFor(kind: 'images', uploadDate: string, eventID: number, ext: string) {
  return `${kind}/${uploadDate.slice(0, 7)}/${uploadDate}_${eventID}.${ext}`
}

/** Stores a demo photo's bytes under a media key (the app's media storage: a folder or a bucket). */
export type PutDemoMedia = (key: string, bytes: Buffer, contentType: string) => Promise<unknown>

/**
 * Fills an empty database with the demo data, in one transaction: a seed stopped part-way (killed, the machine
 * off) leaves no demo data, and the next start seeds again. Photos are stored first and their rows committed last,
 * so no committed row points to a missing photo.
 */
export function seedDemoData(db: Database, options: { putMedia: PutDemoMedia; timeZone: string }) {
  return db.transaction((tx) => seedEmptyDatabase(tx, options))
}

async function seedEmptyDatabase(
  db: Transaction,
  { putMedia, timeZone }: { putMedia: PutDemoMedia; timeZone: string },
) {
  const [existing] = await db.select({ n: count() }).from(business)
  if ((existing?.n ?? 0) > 0) return { seeded: false as const }

  const owners = []
  for (const demo of DEMO_BUSINESSES) owners.push(await insertBusiness(db, demo))
  const staff = []
  for (const person of DEMO_STAFF)
    staff.push(
      await insertUser(db, { email: person.email, fullName: person.fullName, roles: [...person.roles] }),
    )

  const today = todayInZone(timeZone)
  const uploadDate = isoDateInZone(new Date(), timeZone)
  const created: Array<{ eventID: number; businessID: number }> = []

  for (let i = 0; i < 36; i++) {
    const idea = DEMO_EVENT_IDEAS[i % DEMO_EVENT_IDEAS.length]!
    const owner = owners[i % owners.length]!
    const start = addDaysIso(today, (i * 2) % 40)
    const dayCount = [3, 5, 7, 10, 14][i % 5]!
    const showAdOnDates = Array.from({ length: dayCount }, (_, d) => addDaysIso(start, d))
    const eventDate = i % 3 === 0 ? addDaysIso(start, dayCount - 1) : UNSET_DATE
    // 30 live, 4 paid and awaiting review, 2 saved but never paid.
    const state = i < 30 ? 'live' : i < 34 ? 'review' : 'unpaid'
    // The first copy of an idea shows what an ad can say besides: its facts, a status, a Sponsored slot.
    const firstCopy = i < DEMO_EVENT_IDEAS.length
    const schedule = firstCopy && state === 'live' ? idea.schedule : undefined
    // Chosen at checkout: the surcharge is in the ad's price and its payment.
    const sponsoredCents =
      firstCopy && idea.sponsored ? sponsoredSurchargeCentsFor(showAdOnDates.length, DEFAULT_PRICE_LIST) : 0
    const cents = chargeCentsFor(showAdOnDates.length, DEFAULT_PRICE_LIST) + sponsoredCents
    const [row] = await db
      .insert(events)
      .values({
        businessID: owner.businessID,
        businessName: owner.businessName,
        eventTitle: firstCopy ? idea.title : `${idea.title} (${i + 1})`,
        eventDescription: idea.description,
        category: idea.categories,
        showAdOnDates,
        eventDate,
        ...showDateBounds(eventDate, showAdOnDates),
        daysOrdered: showAdOnDates.length,
        totalCost: centsToDollars(cents),
        contactPerson: owner.businessContact,
        contactEmail: owner.businessEmail,
        contactPhone: owner.businessPhone,
        approvedDateByBusiness: today,
        approvedDateByAdmin: state === 'live' ? today : UNSET_DATE,
        paymentStatus: state === 'unpaid' ? 'pending' : 'paid',
        eventStatus: state === 'live' ? 'approved' : 'pending',
        ...(firstCopy ? idea.facts : {}),
        startTime: idea.startTime ?? null,
        endTime: idea.endTime ?? null,
        ...(schedule
          ? { scheduleStatus: schedule.status, scheduleNote: schedule.note, scheduleChangedAt: new Date() }
          : {}),
        ...(sponsoredCents > 0 ? { sponsored: true, sponsoredCents, sponsoredAt: new Date() } : {}),
      })
      .returning({ eventID: events.eventID })
    const eventID = row!.eventID

    const key = mediaKeyFor('images', uploadDate, eventID, 'webp')
    const poster = await makePoster(idea.title, i)
    await putMedia(key, poster, 'image/webp')
    // The smaller copies an uploaded photo gets too, which the pages offer phones in srcset.
    for (const width of PHOTO_SRCSET_WIDTHS) {
      const copy = await sharp(poster)
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 78 })
        .toBuffer()
      await putMedia(photoVariantKey(key, width), copy, 'image/webp')
    }
    const url = `/api/media/${key.slice(key.lastIndexOf('/') + 1)}`
    await db.update(events).set({ stillPhotoURL: url }).where(eqEvent(eventID))
    await db.insert(eventMedia).values({ eventID, mediaType: 'photo', mediaUrl: url })

    if (state !== 'unpaid') {
      await db.insert(payments).values({
        eventID,
        totalCost: centsToDollars(cents),
        totalPaid: centsToDollars(cents),
        datePaid: new Date(),
        payment_intent_id: `pi_demo_${eventID}`,
        idempotency_key: `event-${eventID}-demo`,
        amount_due_cents: cents,
        amount_paid_cents: cents,
        payment_status: 'paid',
        paid_at: new Date(),
        card_brand: 'visa',
        card_last4: '4242',
        card_exp_month: 12,
        card_exp_year: 2030,
      })
      await db
        .update(events)
        .set({ payment_intent_id: `pi_demo_${eventID}` })
        .where(eqEvent(eventID))
    }
    created.push({ eventID, businessID: owner.businessID })
  }

  created.push(
    ...(await seedFreeListings(db, {
      putMedia,
      today,
      uploadDate,
      adminId: staff.find((person) => person.roles.includes('admin'))!.id,
    })),
  )

  const clicks = created.slice(0, 30).flatMap(({ eventID, businessID }, i) =>
    Array.from({ length: (i * 7) % 12 }, (_, n) => ({
      eventID,
      businessID,
      userIPaddress: `demo-visitor-${n}`,
      clickDate: today,
      bounceClick: n % 4 === 0,
    })),
  )
  if (clicks.length) await db.insert(clickCount).values(clicks)

  return { seeded: true as const, events: created.length, clicks: clicks.length, zips: DEMO_ZIPS.length }
}

/**
 * The host lists one category free (a price list version, as an administrator's change on /admin/pricing is), and
 * the library's events in it are live free community listings: $0 paid, no card.
 */
async function seedFreeListings(
  db: Transaction,
  {
    putMedia,
    today,
    uploadDate,
    adminId,
  }: { putMedia: PutDemoMedia; today: string; uploadDate: string; adminId: string },
) {
  const [category] = await db
    .select({ id: categoryList.categoryID })
    .from(categoryList)
    .where(eq(categoryList.categoryName, DEMO_FREE_CATEGORY))
  await db.insert(priceLists).values({
    tiers: DEFAULT_PRICE_LIST.tiers,
    sponsoredCentsPerDay: DEFAULT_PRICE_LIST.sponsoredCentsPerDay,
    sponsoredSlots: DEFAULT_PRICE_LIST.sponsoredSlots,
    freeListings: [{ categoryID: category!.id, ...DEFAULT_FREE_ALLOWANCE }],
    note: `${DEMO_FREE_CATEGORY} events are listed free (demo)`,
    changedByUserId: adminId,
  })
  const library = await insertBusiness(db, DEMO_FREE_ORGANISATION)
  const created: Array<{ eventID: number; businessID: number }> = []
  for (const [n, listing] of DEMO_FREE_LISTINGS.entries()) {
    const showAdOnDates = Array.from({ length: DEFAULT_FREE_ALLOWANCE.maxDates }, (_, d) =>
      addDaysIso(today, n + d * 7),
    ).filter((date) => date <= addDaysIso(today, 60))
    const [row] = await db
      .insert(events)
      .values({
        businessID: library.businessID,
        businessName: library.businessName,
        eventTitle: listing.title,
        eventDescription: listing.description,
        category: [DEMO_FREE_CATEGORY],
        showAdOnDates,
        eventDate: UNSET_DATE,
        ...showDateBounds(UNSET_DATE, showAdOnDates),
        daysOrdered: showAdOnDates.length,
        totalCost: centsToDollars(0),
        contactPerson: library.businessContact,
        contactEmail: library.businessEmail,
        contactPhone: library.businessPhone,
        approvedDateByBusiness: today,
        approvedDateByAdmin: today,
        paymentStatus: 'paid',
        eventStatus: 'approved',
        startTime: listing.startTime,
        endTime: listing.endTime,
      })
      .returning({ eventID: events.eventID })
    const eventID = row!.eventID
    const key = mediaKeyFor('images', uploadDate, eventID, 'webp')
    const poster = await makePoster(listing.title, n)
    await putMedia(key, poster, 'image/webp')
    for (const width of PHOTO_SRCSET_WIDTHS) {
      const copy = await sharp(poster)
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 78 })
        .toBuffer()
      await putMedia(photoVariantKey(key, width), copy, 'image/webp')
    }
    const url = `/api/media/${key.slice(key.lastIndexOf('/') + 1)}`
    await db.update(events).set({ stillPhotoURL: url }).where(eqEvent(eventID))
    await db.insert(eventMedia).values({ eventID, mediaType: 'photo', mediaUrl: url })
    // What a free listing sent through the form records: a $0 payment with its own reference, no card.
    const reference = `free_demo_${eventID}`
    await db.insert(payments).values({
      eventID,
      totalCost: centsToDollars(0),
      totalPaid: centsToDollars(0),
      datePaid: new Date(),
      payment_intent_id: reference,
      idempotency_key: reference,
      amount_due_cents: 0,
      amount_paid_cents: 0,
      payment_status: 'paid',
      paid_at: new Date(),
    })
    await db.update(events).set({ payment_intent_id: reference }).where(eqEvent(eventID))
    created.push({ eventID, businessID: library.businessID })
  }
  return created
}

function eqEvent(eventID: number) {
  return eq(events.eventID, eventID)
}
