import { eq } from 'drizzle-orm'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, moderationAudit, outbox, type Business, type Event } from '#db/schema.ts'
import { insertPaidPayment, insertTestEvent } from './events.ts'
import { callRoute } from './routes.ts'

/** A paid ad of `owner` awaiting review (uploaded now unless told), with its payment. */
export async function paidAdAwaitingReview(owner: Business, overrides: Partial<Event> = {}) {
  const today = platformToday()
  const event = await insertTestEvent(owner, {
    eventTitle: 'Waiting',
    eventStatus: 'pending',
    paymentStatus: 'paid',
    showAdOnDates: [addDaysIso(today, 2), addDaysIso(today, 3)],
    ...overrides,
  })
  const payment = await insertPaidPayment(event.eventID)
  await db
    .update(events)
    .set({ payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, event.eventID))
  return event
}

/** A form post to a route's action, as a browser without JavaScript sends it. */
export function postForm(
  handler: Parameters<typeof callRoute>[0],
  path: string,
  fields: Record<string, string | string[]>,
  { cookie, params }: { cookie?: string; params?: Record<string, string> } = {},
) {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one)
  return callRoute(handler, path, {
    method: 'POST',
    body,
    params,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
  })
}

/** The trail of one ad, oldest first. */
export const auditRowsOf = (eventID: number) =>
  db.select().from(moderationAudit).where(eq(moderationAudit.eventID, eventID)).orderBy(moderationAudit.id)

/** The emails queued to one address. */
export const mailTo = (address: string) => db.select().from(outbox).where(eq(outbox.toAddress, address))
