/** Adds the "Run again" journeys' advertisers, each with a paid ad that has ended and its photo, to the e2e database. */
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { mediaDate, mediaStorage } from '#app/services/media/media.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { mediaKey, mediaUrlFromKey, PHOTO_SRCSET_WIDTHS, photoVariantKey } from '#app/utils/media-types.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { eventMedia, events } from '#db/schema.ts'
import { E2E_TIME_ZONE } from './ad-analytics-data.ts'
import { runAgainOwners } from './run-again-data.ts'

const today = todayInZone(E2E_TIME_ZONE)
const dates = [addDaysIso(today, -20), addDaysIso(today, -13)]
const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a63' } })
  .webp()
  .toBuffer()

const handle = await openConfiguredDatabase(getEnv())
try {
  const { db } = handle
  for (const owner of Object.values(runAgainOwners)) {
    const business = await insertBusiness(db, owner)
    const [event] = await db
      .insert(events)
      .values({
        businessID: business.businessID,
        businessName: business.businessName,
        eventTitle: owner.adTitle,
        eventDescription: 'Every Friday from eight: live music and small plates.',
        category: ['Concert'],
        showAdOnDates: dates,
        ...showDateBounds('1989-01-01', dates),
        daysOrdered: dates.length,
        totalCost: 29,
        approvedDateByBusiness: addDaysIso(today, -25),
        approvedDateByAdmin: addDaysIso(today, -24),
        eventStatus: 'approved',
        paymentStatus: 'paid',
        contactPerson: 'Ada Encore',
      })
      .returning()
    const key = mediaKey({
      kind: 'photo',
      date: mediaDate(event!.createdDate),
      id: event!.eventID,
      ext: 'webp',
    })
    // As an upload leaves a photo: the file and its narrower srcset copies.
    for (const width of PHOTO_SRCSET_WIDTHS)
      await mediaStorage().put(photoVariantKey(key, width), Readable.from([photo]), 'image/webp')
    const stored = await mediaStorage().put(key, Readable.from([photo]), 'image/webp')
    const url = `${mediaUrlFromKey(key)}?v=${stored.version}`
    await db.insert(eventMedia).values({ eventID: event!.eventID, mediaType: 'photo', mediaUrl: url })
    await db.update(events).set({ stillPhotoURL: url }).where(eq(events.eventID, event!.eventID))
  }
} finally {
  await handle.close()
}
