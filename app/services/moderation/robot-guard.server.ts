import crypto from 'node:crypto'
import {
  SIGNUP_FORM_MAX_AGE_MS,
  SIGNUP_HONEYPOT_FIELD,
  SIGNUP_MIN_FILL_MS,
  SIGNUP_STARTED_FIELD,
} from '#app/constants.ts'
import { getEnv } from '../platform/env.server.ts'
import { robotRefusals } from '../platform/metrics.server.ts'

/** What a refused robot reads: nothing about why. */
export const NEUTRAL_REFUSAL = 'Your submission could not be processed.'

function signature(issuedAt: string, secret: string) {
  return crypto.createHmac('sha256', `form-stamp:${secret}`).update(issuedAt).digest('base64url')
}

/** The signed moment a guarded form (registration, reporting an ad) is drawn (`ms.signature`). */
export function formStamp(now = Date.now()) {
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
 * Whether a guarded form's post looks like a person's: the honeypot empty, and the form's stamp genuine, at least
 * `minFillMs` old and at most SIGNUP_FORM_MAX_AGE_MS. A refusal is counted by form and reason, never logged.
 */
export function isHumanPost(
  formData: FormData,
  {
    form,
    minFillMs = SIGNUP_MIN_FILL_MS,
    now = Date.now(),
  }: { form: 'signup' | 'report'; minFillMs?: number; now?: number },
) {
  const honeypotFilled = Boolean(formData.get(SIGNUP_HONEYPOT_FIELD))
  const age = stampAge(formData.get(SIGNUP_STARTED_FIELD), now)
  const reason = honeypotFilled
    ? 'honeypot'
    : age === null
      ? 'stamp'
      : age < minFillMs
        ? 'too_fast'
        : age > SIGNUP_FORM_MAX_AGE_MS
          ? 'stale'
          : null
  if (reason) robotRefusals.inc({ form, reason })
  return reason === null
}
