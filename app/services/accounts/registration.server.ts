import { z } from 'zod'
import { registrationSchema, type Registration } from '#app/models/accounts/business-schema.ts'
import { DUPLICATE_EMAIL_MESSAGE } from '#app/models/accounts/registration-rules.ts'
import { businessEmailTaken, createBusiness, toSessionCopy } from '#app/models/accounts/business.server.ts'
import type { Business } from '#db/schema.ts'
import { getEnv } from '../platform/env.server.ts'
import { parseFormSubmission } from '../http/form-submission.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { getSessionIdentity, getUser, startSession } from './auth.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  checkLimit,
  clientIp,
  recordFailure,
  registrationKey,
  REGISTRATION_WINDOW_MS,
} from '../platform/rate-limit.server.ts'

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

/** 409 when the email is the only problem (someone else has it), 400 otherwise. */
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

/** How a caller answers a failure that is not the user's (a database outage is 503/504 with the spec's texts). */
export const REGISTRATION_FAILURE_OPTIONS = {
  unexpectedMessage: REGISTRATION_FAILED_MESSAGE,
  logAs: 'Creating a business account failed',
} as const

const INVALID_MESSAGE = 'Please correct the highlighted fields'

/** The refusal of registration fields: 409 with the email's message when it is taken and nothing else is wrong. */
export function registrationRefused(errors: FieldErrors) {
  const kind = kindOfFieldErrors(errors)
  const message = kind === 'conflict' ? errors.businessEmail![0]! : INVALID_MESSAGE
  return new AppError(message, kind, { fieldErrors: errors })
}

/** Form posts (the page's action): the form's submission (the email checked against the database too). */
export function parseRegistrationForm(formData: FormData) {
  return parseFormSubmission(formData, serverRegistrationSchema, { async: true })
}

/** JSON bodies: the same rules; what they refuse is {@link registrationRefused}. */
export async function parseRegistrationJson(body: unknown): Promise<Registration> {
  const result = await serverRegistrationSchema.safeParseAsync(body ?? {})
  if (result.success) return result.data
  const { fieldErrors, formErrors } = z.flattenError(result.error)
  throw registrationRefused({
    ...fieldErrors,
    ...(formErrors.length ? { '': formErrors } : {}),
  } as FieldErrors)
}

/** Form posts outside the page (form-encoded API calls): the same as JSON. */
export async function parseRegistrationFormFields(formData: FormData): Promise<Registration> {
  const submission = await parseRegistrationForm(formData)
  if (submission.status === 'success') return submission.value
  throw registrationRefused(fieldErrorsOf(submission.error))
}

/** A submission's error map (null for a field without errors) as `{field: [messages]}`. */
export function fieldErrorsOf(error: Record<string, string[] | null> | null | undefined): FieldErrors {
  return Object.fromEntries(Object.entries(error ?? {}).map(([field, messages]) => [field, messages ?? []]))
}

/** Creates the account (password hashed; linked to the identity-provider user when one is signed in); 409 when taken. */
export function registerBusiness(
  data: Registration,
  { linkUserId, origin }: { linkUserId?: string; origin: string },
): Promise<Business> {
  return createBusiness(data, { linkUserId, origin })
}

/**
 * Registration by whoever sends the request, at most REGISTRATIONS_PER_ADDRESS_PER_HOUR per address (429 AppError
 * with Retry-After; a taken email is the model's 409). Someone signed in through the identity provider gets the new
 * business linked to their user and added to their session (a new session id); anyone else just gets the account.
 */
export async function completeRegistration(
  request: Request,
  data: Registration,
): Promise<{ business: Business; headers?: Headers }> {
  // Per address; without one (a request that did not come through server.js) there is nothing to count by.
  const ip = clientIp(request)
  const limitKey = registrationKey(ip)
  if (ip !== 'unknown') {
    const limit = await checkLimit(limitKey, {
      max: getEnv().REGISTRATIONS_PER_ADDRESS_PER_HOUR,
      windowMs: REGISTRATION_WINDOW_MS,
    })
    if (limit.limited) {
      const { retryAfterSeconds } = limit
      throw new AppError(tooManyRegistrationsMessage(retryAfterSeconds), 'too_many_requests', {
        retryAfterSeconds,
      })
    }
    await recordFailure(limitKey, { windowMs: REGISTRATION_WINDOW_MS })
  }
  const user = await getUser(request)
  const business = await registerBusiness(data, { linkUserId: user?.id, origin: linkOrigin(request) })
  if (!user) return { business }
  const headers = await startSession(request, {
    user,
    identity: await getSessionIdentity(request),
    business: toSessionCopy(business),
  })
  return { business, headers }
}
