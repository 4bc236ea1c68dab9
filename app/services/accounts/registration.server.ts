import { z } from 'zod'
import { registrationSchema, type Registration } from '#app/models/accounts/business-schema.ts'
import { DUPLICATE_EMAIL_MESSAGE } from '#app/models/accounts/registration-rules.ts'
import { businessEmailTaken, createBusiness } from '#app/models/accounts/business.server.ts'
import type { Business } from '#db/schema.ts'
import { getEnv } from '../platform/env.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { registrationKey, REGISTRATION_WINDOW_MS, takeSlot } from '../platform/rate-limit.server.ts'

export const REGISTRATION_FAILED_MESSAGE = 'Failed to create business account. Please try again.'
export const REGISTRATION_SUCCESS_TITLE = 'Account Created'
export const REGISTRATION_SUCCESS_MESSAGE = 'Your business account has been created. Please sign in.'
export const REGISTRATION_HIDDEN_FIELDS = ['businessPassword', 'verifyPassword']

/** The shared rules plus what only the server can check: the email is not registered yet. */
export const serverRegistrationSchema = registrationSchema.refine(
  async (data) => !(await businessEmailTaken(data.businessEmail)),
  {
    message: DUPLICATE_EMAIL_MESSAGE,
    path: ['businessEmail'],
    // Checked even while other fields are wrong, so the form shows every problem in one go.
    when: (payload) => {
      const email = (payload.value as { businessEmail?: unknown } | undefined)?.businessEmail
      return typeof email === 'string' && email.includes('@')
    },
  },
)

export type FieldErrors = Record<string, string[]>

/** A conflict when the email is the only problem (someone else has it), invalid otherwise. */
export function kindOfFieldErrors(errors: FieldErrors) {
  const fields = Object.keys(errors).filter((k) => errors[k]?.length)
  const onlyDuplicate =
    fields.length === 1 &&
    fields[0] === 'businessEmail' &&
    errors.businessEmail!.every((m) => m === DUPLICATE_EMAIL_MESSAGE)
  return onlyDuplicate ? ('conflict' as const) : ('invalid' as const)
}

export function tooManyRegistrationsMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  return `Too many accounts were created from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

/** How a caller answers a failure that is not the user's (a database outage is answered with the outage texts). */
export const REGISTRATION_FAILURE_OPTIONS = {
  unexpectedMessage: REGISTRATION_FAILED_MESSAGE,
  logAs: 'Creating a business account failed',
} as const

const INVALID_MESSAGE = 'Please correct the highlighted fields'

/** The refusal of registration fields: a conflict, with the email's message, when only the email is taken. */
export function registrationRefused(errors: FieldErrors) {
  const kind = kindOfFieldErrors(errors)
  const message = kind === 'conflict' ? errors.businessEmail![0]! : INVALID_MESSAGE
  return new AppError(message, kind, { fieldErrors: errors })
}

/**
 * JSON bodies: the same rules; what they refuse is {@link registrationRefused}. Forms are read with
 * `serverRegistrationSchema` through the form recipe (its `async` reading, for the email's check).
 */
export async function parseRegistrationJson(body: unknown): Promise<Registration> {
  const result = await serverRegistrationSchema.safeParseAsync(body ?? {})
  if (result.success) return result.data
  const { fieldErrors, formErrors } = z.flattenError(result.error)
  throw registrationRefused({
    ...fieldErrors,
    ...(formErrors.length ? { '': formErrors } : {}),
  } as FieldErrors)
}

/** A submission's error map (null for a field without errors) as `{field: [messages]}`. */
export function fieldErrorsOf(error: Record<string, string[] | null> | null | undefined): FieldErrors {
  return Object.fromEntries(Object.entries(error ?? {}).map(([field, messages]) => [field, messages ?? []]))
}

/**
 * Creates the account (password hashed; linked to the identity-provider user when one is signed in); a conflict when
 * the email is taken.
 */
export function registerBusiness(
  data: Registration,
  { linkUserId, origin }: { linkUserId?: string; origin: string },
): Promise<Business> {
  return createBusiness(data, { linkUserId, origin })
}

/**
 * Registration from the client's address `ip`, at most REGISTRATIONS_PER_ADDRESS_PER_HOUR per address (a too many
 * requests AppError with Retry-After; a taken email is the model's conflict). The new business is linked to
 * `linkUserId`, the identity-provider user signed in, if any; `origin` is the site's, for the links in its email.
 */
export async function completeRegistration(
  data: Registration,
  { ip, linkUserId, origin }: { ip: string; linkUserId?: string; origin: string },
): Promise<Business> {
  // Per address; without one (a request that did not come through server.js) there is nothing to count by.
  if (ip !== 'unknown') {
    const taken = await takeSlot(registrationKey(ip), {
      max: getEnv().REGISTRATIONS_PER_ADDRESS_PER_HOUR,
      windowMs: REGISTRATION_WINDOW_MS,
    })
    if (!taken.allowed) {
      const { retryAfterSeconds } = taken
      throw new AppError(tooManyRegistrationsMessage(retryAfterSeconds), 'too_many_requests', {
        retryAfterSeconds,
      })
    }
  }
  return registerBusiness(data, { linkUserId, origin })
}
