import crypto from 'node:crypto'
import {
  SIGNUP_FORM_MAX_AGE_MS,
  SIGNUP_HONEYPOT_FIELD,
  SIGNUP_MIN_FILL_MS,
  SIGNUP_STARTED_FIELD,
} from '#app/constants.ts'
import { getEnv } from '../platform/env.server.ts'
import { signupRefusals } from '../platform/metrics.server.ts'

/** What a refused robot reads: nothing about why. */
export const SIGNUP_NEUTRAL_REFUSAL = 'Your submission could not be processed.'

function signature(issuedAt: string, secret: string) {
  return crypto.createHmac('sha256', `signup-form:${secret}`).update(issuedAt).digest('base64url')
}

/** The signed moment the registration form is drawn (`ms.signature`). */
export function signupFormStamp(now = Date.now()) {
  const issuedAt = String(now)
  return `${issuedAt}.${signature(issuedAt, getEnv().sessionSecrets[0]!)}`
}

function stampAge(stamp: FormDataEntryValue | null, now: number): number | null {
  if (typeof stamp !== 'string' || stamp.length > 100) return null
  const [issuedAt = '', signed = ''] = stamp.split('.')
  if (!/^\d{1,15}$/.test(issuedAt)) return null
  const expected = Buffer.from(signed)
  const matches = getEnv().sessionSecrets.some((secret) => {
    const actual = Buffer.from(signature(issuedAt, secret))
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected)
  })
  return matches ? now - Number(issuedAt) : null
}

/**
 * Whether a registration post looks like a person's: the honeypot empty, and the form's stamp genuine, at least
 * SIGNUP_MIN_FILL_MS old and at most SIGNUP_FORM_MAX_AGE_MS. A refusal is counted, never logged with the address.
 */
export function isHumanSignup(formData: FormData, now = Date.now()) {
  const honeypotFilled = Boolean(formData.get(SIGNUP_HONEYPOT_FIELD))
  const age = stampAge(formData.get(SIGNUP_STARTED_FIELD), now)
  const reason = honeypotFilled
    ? 'honeypot'
    : age === null
      ? 'stamp'
      : age < SIGNUP_MIN_FILL_MS
        ? 'too_fast'
        : age > SIGNUP_FORM_MAX_AGE_MS
          ? 'stale'
          : null
  if (reason) signupRefusals.inc({ reason })
  return reason === null
}
