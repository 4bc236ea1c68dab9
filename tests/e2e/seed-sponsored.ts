/**
 * Adds a live sponsored ad (sponsored-data.ts) to the e2e database, the only one in the calendar's Sponsored slots.
 */
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { and, eq, ne } from 'drizzle-orm'
import { events } from '#db/schema.ts'
import { E2E_TIME_ZONE } from './ad-analytics-data.ts'
import { SPONSORED_AD_TITLE, SPONSORED_OWNER } from './sponsored-data.ts'

const today = todayInZone(E2E_TIME_ZONE)

const handle = await openConfiguredDatabase(getEnv())
try {
  const { db } = handle
  // The demo's own sponsored ad leaves the slots: the journeys expect this one alone there, first.
  await db
    .update(events)
    .set({ sponsored: false, sponsoredCents: 0, sponsoredAt: null })
    .where(eq(events.sponsored, true))
  const business = await insertBusiness(db, SPONSORED_OWNER)
  // A photo like the demo ads', so the pages' photo checks hold with the sponsored ad first.
  const [withPhoto] = await db
    .select({ stillPhotoURL: events.stillPhotoURL })
    .from(events)
    .where(and(eq(events.eventStatus, 'approved'), ne(events.stillPhotoURL, '')))
    .limit(1)
  const showAdOnDates = [today, addDaysIso(today, 1)]
  await db.insert(events).values({
    businessID: business.businessID,
    businessName: business.businessName,
    eventTitle: SPONSORED_AD_TITLE,
    eventDescription: 'Paper lanterns, music and a walk by the river.',
    category: ['Community'],
    showAdOnDates,
    ...showDateBounds('1989-01-01', showAdOnDates),
    daysOrdered: showAdOnDates.length,
    totalCost: 39,
    approvedDateByBusiness: addDaysIso(today, -2),
    approvedDateByAdmin: addDaysIso(today, -1),
    eventStatus: 'approved',
    paymentStatus: 'paid',
    contactPerson: 'Lou Lantern',
    stillPhotoURL: withPhoto?.stillPhotoURL ?? '',
    sponsored: true,
    sponsoredCents: 1000,
    sponsoredAt: new Date(),
  })
} finally {
  await handle.close()
}
