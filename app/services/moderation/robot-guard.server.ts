import crypto from 'node:crypto'
import { SIGNUP_FORM_MAX_AGE_MS, SIGNUP_MIN_FILL_MS } from '#app/constants.ts'
import { getEnv } from '../platform/env.server.ts'
import { robotRefusals } from '../platform/metrics.server.ts'
import { claimInterval, usedFormStampKey } from '../platform/rate-limit.server.ts'

/** What a refused robot reads on the report form: nothing about why. */
export const NEUTRAL_REFUSAL = 'Your submission could not be processed.'

/**
 * What the registration form answers every post its robot check refuses, whichever check it was: what a person does
 * next (autofill can send the form before the minimum fill time), and nothing that tells a robot which check failed.
 */
export const SIGNUP_REFUSAL = 'Please check your details and press Create Account again.'

function signature(issuedAt: string, secret: string) {
  // 128 bits are plenty against forgery, and the stamp travels in the page's data.
  return crypto
    .createHmac('sha256', `form-stamp:${secret}`)
    .update(issuedAt)
    .digest()
    .subarray(0, 16)
    .toString('base64url')
}

/**
 * The signed moment a guarded form (registration, reporting an ad) is drawn (`ms.nonce.signature`). The nonce makes
 * each stamp its own, so two forms drawn in the same millisecond do not share the one post a stamp is good for.
 */
export function formStamp(now = Date.now()) {
  const issued = `${now}.${crypto.randomBytes(9).toString('base64url')}`
  return `${issued}.${signature(issued, getEnv().sessionSecrets[0]!)}`
}

function stampAge(stamp: unknown, now: number): number | null {
  if (typeof stamp !== 'string' || stamp.length > 100) return null
  const [issuedAt = '', nonce = '', signed = '', ...rest] = stamp.split('.')
  if (rest.length || !/^\d{1,15}$/.test(issuedAt) || !/^[\w-]{12}$/.test(nonce)) return null
  const expected = Buffer.from(signed)
  const matches = getEnv().sessionSecrets.some((secret) => {
    const actual = Buffer.from(signature(`${issuedAt}.${nonce}`, secret))
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected)
  })
  return matches ? now - Number(issuedAt) : null
}

/** What the guard reads of a post: the honeypot field's value and the form's stamp, as the route found them. */
export interface PostSigns {
  honeypot: unknown
  stamp: unknown
}

/**
 * Whether a guarded form's post looks like a person's: the honeypot empty, and the form's stamp genuine, at least
 * `minFillMs` old and at most SIGNUP_FORM_MAX_AGE_MS. A refusal is counted by form and reason, never logged.
 */
export function isHumanPost(
  { honeypot, stamp }: PostSigns,
  {
    form,
    minFillMs = SIGNUP_MIN_FILL_MS,
    now = Date.now(),
  }: { form: 'signup' | 'report'; minFillMs?: number; now?: number },
) {
  const age = stampAge(stamp, now)
  const reason = honeypot
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

/**
 * Takes a genuine stamp (one `isHumanPost` accepted) for the one post it is good for, in the database so every server
 * sees it: false when a post took it before, which is refused like any robot's and counted.
 */
export async function claimFormStamp(stamp: string, form: 'signup' | 'report') {
  const claimed = (await claimInterval(usedFormStampKey(stamp), SIGNUP_FORM_MAX_AGE_MS)) === 0
  if (!claimed) robotRefusals.inc({ form, reason: 'reused' })
  return claimed
}

/**
 * A new registration stamp when the browser holds no usable one (none, forged, from the future or stale), else null:
 * a usable one is kept, so a person who presses again after a refusal is not made to wait the minimum time anew.
 */
export function renewedSignupStamp(stamp: string | null, now = Date.now()): string | null {
  const age = stampAge(stamp, now)
  if (age !== null && age >= 0 && age <= SIGNUP_FORM_MAX_AGE_MS) return null
  return formStamp(now)
}
