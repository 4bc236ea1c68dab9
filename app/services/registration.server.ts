import { z } from 'zod'
import { registrationSchema, type Registration } from '#app/models/business-schema.ts'
import { DUPLICATE_EMAIL_MESSAGE } from '#app/models/registration-rules.ts'
import {
  businessEmailTaken,
  createBusiness,
  toSessionCopy,
} from '#app/models/business.server.ts'
import type { Business } from '#db/schema.ts'
import { getEnv } from './env.server.ts'
import { parseFormSubmission } from './form-submission.server.ts'
import { linkOrigin } from './site-url.server.ts'
import { getSessionIdentity, getUser, startSession } from './auth.server.ts'
import { databaseFailureResponse } from './database-errors.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  checkLimit,
  clientIp,
  recordFailure,
  registrationKey,
  REGISTRATION_WINDOW_MS,
} from './rate-limit.server.ts'

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
export function statusForFieldErrors(errors: FieldErrors) {
  const fields = Object.keys(errors).filter((k) => errors[k]?.length)
  const onlyDuplicate =
    fields.length === 1 &&
    fields[0] === 'businessEmail' &&
    errors.businessEmail!.every((m) => m === DUPLICATE_EMAIL_MESSAGE)
  return onlyDuplicate ? 409 : 400
}

export type RegistrationFailure = { ok: false; status: number; message: string; retryAfterSeconds?: number }

export function tooManyRegistrationsMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  return `Too many accounts were created from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

function failure(error: unknown): RegistrationFailure {
  if (error instanceof AppError) {
    const { status, message, retryAfterSeconds } = error
    return { ok: false, status, message, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) }
  }
  console.error('Creating a business account failed', error)
  return { ok: false, ...databaseFailureResponse(error, REGISTRATION_FAILED_MESSAGE) }
}

/** Form posts (page action and form-encoded API calls): the form's submission, or a failure that is not the user's. */
export async function parseRegistrationForm(formData: FormData) {
  try {
    return {
      ok: true as const,
      submission: await parseFormSubmission(formData, serverRegistrationSchema, { async: true }),
    }
  } catch (error) {
    return failure(error)
  }
}

export type ParsedRegistration =
  { ok: true; data: Registration } | { ok: true; errors: FieldErrors } | RegistrationFailure

/** JSON bodies: the same rules, with field errors as `{field: [messages]}`. */
export async function parseRegistrationJson(body: unknown): Promise<ParsedRegistration> {
  try {
    const result = await serverRegistrationSchema.safeParseAsync(body ?? {})
    if (result.success) return { ok: true, data: result.data }
    const { fieldErrors, formErrors } = z.flattenError(result.error)
    return {
      ok: true,
      errors: { ...fieldErrors, ...(formErrors.length ? { '': formErrors } : {}) } as FieldErrors,
    }
  } catch (error) {
    return failure(error)
  }
}

/** Form posts outside the page (form-encoded API calls): the same result shape as JSON. */
export async function parseRegistrationFormFields(formData: FormData): Promise<ParsedRegistration> {
  const parsed = await parseRegistrationForm(formData)
  if (!parsed.ok) return parsed
  const { submission } = parsed
  if (submission.status === 'success') return { ok: true, data: submission.value }
  return { ok: true, errors: fieldErrorsOf(submission.error) }
}

/** A submission's error map (null for a field without errors) as `{field: [messages]}`. */
export function fieldErrorsOf(error: Record<string, string[] | null> | null | undefined): FieldErrors {
  return Object.fromEntries(Object.entries(error ?? {}).map(([field, messages]) => [field, messages ?? []]))
}

/** Creates the account (password hashed; linked to the identity-provider user when one is signed in). */
export async function registerBusiness(
  data: Registration,
  { linkUserId, origin }: { linkUserId?: string; origin: string },
): Promise<{ ok: true; business: Business } | RegistrationFailure> {
  try {
    return { ok: true, business: await createBusiness(data, { linkUserId, origin }) }
  } catch (error) {
    return failure(error)
  }
}

/**
 * Registration by whoever sends the request, at most REGISTRATIONS_PER_ADDRESS_PER_HOUR per address (429). Someone signed in through the identity provider gets the new business
 * linked to their user and added to their session (a new session id); anyone else just gets the account.
 */
export async function completeRegistration(
  request: Request,
  data: Registration,
): Promise<{ ok: true; business: Business; headers?: Headers } | RegistrationFailure> {
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
      return {
        ok: false,
        status: 429,
        message: tooManyRegistrationsMessage(retryAfterSeconds),
        retryAfterSeconds,
      }
    }
    await recordFailure(limitKey, { windowMs: REGISTRATION_WINDOW_MS })
  }
  const user = await getUser(request)
  const created = await registerBusiness(data, { linkUserId: user?.id, origin: linkOrigin(request) })
  if (!created.ok || !user) return created
  const headers = await startSession(request, {
    user,
    identity: await getSessionIdentity(request),
    business: toSessionCopy(created.business),
  })
  return { ...created, headers }
}
