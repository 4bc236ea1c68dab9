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
  // 128 bits are plenty against forgery, and the stamp travels in the page's data.
  return crypto
    .createHmac('sha256', `form-stamp:${secret}`)
    .update(issuedAt)
    .digest()
    .subarray(0, 16)
    .toString('base64url')
}

/** The signed moment a guarded form (registration, reporting an ad) is drawn (`ms.signature`). */
export function formStamp(now = Date.now()) {
  const issuedAt = String(now)
  return `${issuedAt}.${signature(issuedAt, getEnv().sessionSecrets[0]!)}`
}

function stampAge(stamp: FormDataEntryValue | null | undefined, now: number): number | null {
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
 * Whether a guarded form's post looks like a person's: the honeypot empty, and the form's stamp (`stamp`, else the
 * form's SIGNUP_STARTED_FIELD) genuine, at least `minFillMs` old and at most SIGNUP_FORM_MAX_AGE_MS. A refusal is
 * counted by form and reason, never logged.
 */
export function isHumanPost(
  formData: FormData,
  {
    form,
    stamp = formData.get(SIGNUP_STARTED_FIELD),
    minFillMs = SIGNUP_MIN_FILL_MS,
    now = Date.now(),
  }: { form: 'signup' | 'report'; stamp?: FormDataEntryValue | null; minFillMs?: number; now?: number },
) {
  const honeypotFilled = Boolean(formData.get(SIGNUP_HONEYPOT_FIELD))
  const age = stampAge(stamp, now)
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

/** The registration form's stamp travels in a cookie, so the page's script and data stay as small as they were. */
export const SIGNUP_STAMP_COOKIE = 'signup_started'

/** The registration stamp the browser sent, if any. */
export function signupStampFrom(request: Request): string | null {
  const cookies = request.headers.get('Cookie') ?? ''
  const match = new RegExp(`(?:^|;\\s*)${SIGNUP_STAMP_COOKIE}=([^;]{1,100})`).exec(cookies)
  return match?.[1] ?? null
}

/**
 * The Set-Cookie of a new registration stamp when the browser holds no usable one (none, forged or stale); a usable
 * one is kept, so a person who corrects a refused form is not refused for answering quickly the second time.
 */
export function signupStampCookie(request: Request, now = Date.now()): string | null {
  const age = stampAge(signupStampFrom(request), now)
  if (age !== null && age >= 0 && age <= SIGNUP_FORM_MAX_AGE_MS) return null
  const maxAge = Math.floor(SIGNUP_FORM_MAX_AGE_MS / 1000)
  const secure = getEnv().isProduction ? '; Secure' : ''
  return `${SIGNUP_STAMP_COOKIE}=${formStamp(now)}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`
}
