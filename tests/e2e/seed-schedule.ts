/** Adds the ads with times and a schedule status (schedule-data.ts) to the e2e database, live and paid. */
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events } from '#db/schema.ts'
import { E2E_TIME_ZONE } from './ad-analytics-data.ts'
import { SCHEDULE_TICKETS, scheduleAds, scheduleOwner } from './schedule-data.ts'

const today = todayInZone(E2E_TIME_ZONE)

const handle = await openConfiguredDatabase(getEnv())
try {
  const { db } = handle
  const business = await insertBusiness(db, scheduleOwner)
  for (const ad of Object.values(scheduleAds)) {
    // Advertised from today, so the list shows them without a date filter.
    const showAdOnDates = [today]
    await db.insert(events).values({
      businessID: business.businessID,
      businessName: business.businessName,
      eventDescription: 'An evening at the hall, with a lantern walk by the river.',
      category: ['Community'],
      showAdOnDates,
      ...ad,
      ...showDateBounds(ad.eventDate, showAdOnDates),
      daysOrdered: showAdOnDates.length,
      totalCost: 29,
      approvedDateByBusiness: addDaysIso(today, -2),
      approvedDateByAdmin: addDaysIso(today, -1),
      eventStatus: 'approved',
      paymentStatus: 'paid',
      contactPerson: 'Lou Lantern',
      priceCents: 1500,
      ticketUrl: SCHEDULE_TICKETS,
      scheduleChangedAt: ad.scheduleStatus ? new Date() : null,
    })
  }
} finally {
  await handle.close()
}
