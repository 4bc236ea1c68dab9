import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { payWithTestCard } from '#app/services/payments/payment-completion.server.ts'
import { amountDueCents } from '#app/services/payments/payment-rules.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { centsToDollars } from '#app/utils/pricing.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { insertTestEvent } from './events.ts'

/** A new unpaid ad of `owner`, paid at the test provider's checkout; the ad as it is after the payment. */
export async function payForNewAd(owner: Business, title: string) {
  const ad = await insertTestEvent(owner, {
    eventTitle: title,
    eventStatus: 'pending',
    paymentStatus: 'pending',
    showAdOnDates: [addDaysIso(platformToday(), 2)],
  })
  const paid = await payWithTestCard({
    businessID: owner.businessID,
    eventID: ad.eventID,
    // What checkout shows for it.
    claimedTotalDollars: centsToDollars(await amountDueCents(ad)),
    card: { number: '4242424242424242', expiry: '12/40', cvc: '123' },
  })
  expect(paid).toEqual({ eventID: ad.eventID, paidBefore: false })
  return (await db.select().from(events).where(eq(events.eventID, ad.eventID)))[0]!
}

/** Runs `run` with TRUSTED_SAMPLE_PERCENT set to `percent` (100: every trusted ad sampled; 0: none). */
export async function withSamplePercent<T>(percent: number, run: () => Promise<T>) {
  process.env.TRUSTED_SAMPLE_PERCENT = String(percent)
  resetEnvCache()
  try {
    return await run()
  } finally {
    delete process.env.TRUSTED_SAMPLE_PERCENT
    resetEnvCache()
  }
}
