import '#app/zod-config.ts'
import { z } from 'zod'
import { parseId } from '#app/models/platform/input-rules.ts'
import {
  emailProblem,
  normalEmail,
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

/**
 * "Email me these events" (kind search, with a frequency; the calendar's filters travel as their own fields) and
 * "Remind me" (kind reminder, with the event's id).
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
      eventID: z.string({ error: 'eventID must be the id of an event' }).transform((value, ctx) => {
        const id = parseId(value)
        if (id === null) {
          ctx.addIssue({ code: 'custom', message: 'eventID must be the id of an event' })
          return z.NEVER
        }
        return id
      }),
    }),
  ],
  { error: 'kind must be search or reminder' },
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
