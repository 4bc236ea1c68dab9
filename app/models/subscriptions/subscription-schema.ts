import '#app/zod-config.ts'
import { z } from 'zod'
import { parseId } from '#app/models/platform/input-rules.ts'
import { normalEmail } from '#app/models/platform/email-address.ts'
import {
  emailProblem,
  SEARCH_FREQUENCIES,
  SUBSCRIPTION_TEXT,
} from '#app/models/subscriptions/subscription-rules.ts'

const emailField = z
  .string({ error: SUBSCRIPTION_TEXT.emailRequired })
  .superRefine((value, ctx) => {
    const problem = emailProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .transform(normalEmail)

const idField = (message: string) =>
  z.string({ error: message }).transform((value, ctx) => {
    const id = parseId(value)
    if (id === null) {
      ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    return id
  })

/**
 * "Email me these events" (kind search, with a frequency; the calendar's filters travel as their own fields),
 * "Remind me" (kind reminder, with the event's id) and "Email me new events from …" (kind business, with its id).
 */
export const subscribeFormSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('search'),
      email: emailField,
      frequency: z.enum(SEARCH_FREQUENCIES, { error: SUBSCRIPTION_TEXT.frequencyInvalid }),
    }),
    z.object({
      kind: z.literal('reminder'),
      email: emailField,
      eventID: idField('eventID must be the id of an event'),
    }),
    z.object({
      kind: z.literal('business'),
      email: emailField,
      businessID: idField('businessID must be the id of a business'),
    }),
  ],
  { error: 'kind must be search, reminder or business' },
)

export type SubscribeForm = z.output<typeof subscribeFormSchema>

/** The manage page's forms: change the frequency, or unsubscribe. */
export const manageFormSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('frequency'),
      frequency: z.enum(SEARCH_FREQUENCIES, { error: SUBSCRIPTION_TEXT.frequencyInvalid }),
    }),
    z.object({ intent: z.literal('unsubscribe') }),
  ],
  { error: 'intent must be frequency or unsubscribe' },
)
