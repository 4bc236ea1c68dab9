import type { z } from 'zod'
import {
  eventInputSchema,
  isOlderEventForm,
  olderEventFormSchema,
  type EventInput,
  type PaidDates,
} from '#app/models/ads/event-schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** `payload` checked by `schema`, or a thrown invalid AppError with the first message and the messages per field. */
function parsed(schema: z.ZodType<EventInput>, payload: unknown): EventInput {
  const result = schema.safeParse(payload)
  if (result.success) return result.data
  const errors: Record<string, string[]> = {}
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form')
    ;(errors[key] ??= []).push(issue.message)
  }
  const first = result.error.issues[0]?.message ?? 'Invalid input'
  throw new AppError(first, 'invalid', { fieldErrors: errors })
}

/**
 * Validates an event payload (JSON or form fields) with the shared schema; throws an invalid AppError with field messages.
 * `paidDates`: the edit of a paid ad, whose dates must stay those paid for.
 */
export function parseEventInput(payload: unknown, paidDates?: PaidDates): EventInput {
  return parsed(eventInputSchema({ today: platformToday(), paidDates }), payload)
}

/** The older POST /api/events: today's fields, or the older form's (see `olderEventFormSchema`). */
export function parseOlderCallInput(payload: Record<string, unknown>): EventInput {
  const today = platformToday()
  return parsed(
    isOlderEventForm(payload) ? olderEventFormSchema({ today }) : eventInputSchema({ today }),
    payload,
  )
}
