import { eq } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { getOwnedEvent } from '#app/models/event.server.ts'
import { eventInputSchema, type EventInput } from '#app/models/event-schema.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { getEnv } from './env.server.ts'
import { setEventPaymentData } from './event-draft.server.ts'
import type { Session } from '@remix-run/node'
import { todayInZone } from '#app/utils/time.ts'
import { AppError } from '#app/utils/app-error.ts'

export function today() {
  return todayInZone(getEnv().APP_TIME_ZONE)
}

/** Validates an event payload (JSON or form fields) with the shared schema; throws a 400 AppError with field messages. */
export function parseEventInput(payload: unknown): EventInput {
  const result = eventInputSchema({ today: today() }).safeParse(payload)
  if (!result.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? 'form')
      ;(errors[key] ??= []).push(issue.message)
    }
    const first = result.error.issues[0]?.message ?? 'Invalid input'
    throw new AppError(first, 400, { fieldErrors: errors })
  }
  return result.data
}

/** The older JSON use of approve-event: the owner approves an event already saved. */
export async function approveSavedEvent(business: BusinessSessionCopy, eventID: number) {
  const event = await getOwnedEvent(eventID, business.businessID)
  if (!event) throw new AppError('Event not found', 404)
  await db.update(events).set({ approvedDateByBusiness: today() }).where(eq(events.eventID, eventID))
  return event
}

export function rememberPayment(
  session: Session,
  {
    business,
    input,
    eventID,
    totalCents,
  }: { business: BusinessSessionCopy; input: EventInput; eventID: number; totalCents: number },
) {
  setEventPaymentData(session, {
    businessID: business.businessID,
    selectedDates: input.showAdDates,
    eventData: input,
    totalAmount: totalCents / 100,
    eventID,
  })
}
