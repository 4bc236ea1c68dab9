/** Adds the ad page journey's advertiser, live ad and tracking rows to the end-to-end database (after the demo seed). */
import { TZDate } from '@date-fns/tz'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { clickCount, eventDailyStats, events, payments } from '#db/schema.ts'
import { analyticsAd, analyticsOwner, E2E_TIME_ZONE, trackedDays } from './ad-analytics-data.ts'

/** Noon of a yyyy-mm-dd day in the platform time zone. */
const noonOf = (isoDate: string) => {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  return new Date(new TZDate(y, m - 1, d, 12, E2E_TIME_ZONE).getTime())
}

const handle = await openConfiguredDatabase(getEnv())
try {
  const { db } = handle
  const owner = await insertBusiness(db, analyticsOwner)
  const [event] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: analyticsAd.title,
      eventDescription: 'Fresh loaves every morning.',
      category: ['Community'],
      showAdOnDates: analyticsAd.showAdOnDates,
      ...showDateBounds('1989-01-01', analyticsAd.showAdOnDates),
      daysOrdered: analyticsAd.showAdOnDates.length,
      totalCost: 39,
      createdDate: noonOf(analyticsAd.createdOn),
      approvedDateByBusiness: analyticsAd.createdOn,
      approvedDateByAdmin: analyticsAd.reviewedOn,
      reviewedAt: noonOf(analyticsAd.reviewedOn),
      eventStatus: 'approved',
      paymentStatus: 'paid',
      payment_intent_id: 'pi_e2e_figures',
    })
    .returning()
  await db.insert(payments).values({
    eventID: event!.eventID,
    totalCost: 39,
    totalPaid: 39,
    datePaid: noonOf(analyticsAd.paidOn),
    paid_at: noonOf(analyticsAd.paidOn),
    payment_intent_id: 'pi_e2e_figures',
    idempotency_key: 'event-e2e-figures',
    amount_due_cents: 3900,
    amount_paid_cents: 3900,
    payment_status: 'paid',
    metadata: { provider: 'test' },
  })
  const ids = { eventID: event!.eventID, businessID: owner.businessID }
  await db
    .insert(eventDailyStats)
    .values(trackedDays.map(({ date, views }) => ({ ...ids, day: date, views })))
  await db.insert(clickCount).values(
    trackedDays.flatMap(({ date, clicks, bounces }) =>
      Array.from({ length: clicks + bounces }, (_, n) => ({
        ...ids,
        userIPaddress: `e2e-visitor-${n}`,
        clickDate: date,
        bounceClick: n >= clicks,
      })),
    ),
  )
} finally {
  await handle.close()
}
