import crypto from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { SIGNUP_FORM_MAX_AGE_MS } from '#app/constants.ts'
import { mailboxKey } from '#app/models/platform/email-address.ts'
import { db } from '#db/client.server.ts'
import { authAttempts } from '#db/schema.ts'
import { normalEmail } from '#app/models/platform/email-address.ts'

export const SIGN_IN_MAX_FAILURES = 10
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000
/**
 * Failed sign-ins at one account from all addresses together in SIGN_IN_WINDOW_MS, after which addresses that have
 * never signed in to it get one attempt per ACCOUNT_GUESS_INTERVAL_MS between them. An address that signed in to
 * the account before keeps its own limit only, so an attacker slows himself down but cannot lock the owner out.
 */
export const ACCOUNT_SLOWDOWN_AFTER_FAILURES = 20
export const ACCOUNT_GUESS_INTERVAL_MS = 30 * 1000
/** How long an address that signed in to an account stays known to it. */
export const KNOWN_ADDRESS_TTL_MS = 90 * 24 * 60 * 60 * 1000
/** The window of the per-address registration limit (REGISTRATIONS_PER_ADDRESS_PER_HOUR). */
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000

const digest = (text: string) => crypto.createHash('sha256').update(text).digest('base64url')

/** Keys are hashed so the table holds no email or IP addresses. */
export function signInAttemptKey(email: string, ip: string) {
  return `signin:${digest(`${normalEmail(email)}\n${ip}`)}`
}

/** Failed sign-ins at one account, from every address. */
export function accountFailuresKey(email: string) {
  return `signin-account:${digest(normalEmail(email))}`
}

/** When the last throttled attempt at one account was let through. */
export function accountGuessKey(email: string) {
  return `signin-guess:${digest(normalEmail(email))}`
}

/** An address that signed in to the account successfully. */
export function knownAddressKey(email: string, ip: string) {
  return `signin-known:${digest(`${normalEmail(email)}\n${ip}`)}`
}

export function registrationKey(ip: string) {
  return `register:${digest(ip)}`
}

/** Subscriptions asked for from one address (SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR). */
export function subscribeKey(ip: string) {
  return `subscribe:${digest(ip)}`
}

/** Confirmation emails sent to one mailbox, however its address is written (CONFIRMATIONS_PER_EMAIL_PER_DAY). */
export function confirmationMailKey(email: string) {
  return `subscribe-mail:${digest(mailboxKey(email))}`
}

/** A guarded form's stamp that a post took (robot-guard): kept while the stamp could still be posted. */
export function usedFormStampKey(stamp: string) {
  return `form-stamp:${digest(stamp)}`
}

/** Free listings sent by one business, and from one address (FREE_LISTINGS_PER_BUSINESS_PER_DAY, …_PER_ADDRESS_…). */
export function freeListingBusinessKey(businessID: number) {
  return `free-listing-business:${businessID}`
}

export function freeListingAddressKey(ip: string) {
  return `free-listing-address:${digest(ip)}`
}

export const FREE_LISTING_WINDOW_MS = 24 * 60 * 60 * 1000

/** Links one business has the server read for "Fill from a link" (LINK_FILLS_PER_BUSINESS_PER_HOUR). */
export function linkFillKey(businessID: number) {
  return `link-fill:${businessID}`
}

export const LINK_FILL_WINDOW_MS = 60 * 60 * 1000

export const SUBSCRIBE_WINDOW_MS = 60 * 60 * 1000
export const CONFIRMATION_MAIL_WINDOW_MS = 24 * 60 * 60 * 1000

export async function rememberAddress(key: string, now = new Date()) {
  await db
    .insert(authAttempts)
    .values({ key, failures: 0, windowStartedAt: now })
    .onConflictDoUpdate({ target: authAttempts.key, set: { windowStartedAt: now } })
}

export async function isKnownAddress(key: string, now = new Date()) {
  const [row] = await db.select().from(authAttempts).where(eq(authAttempts.key, key)).limit(1)
  return Boolean(row && row.windowStartedAt.getTime() > now.getTime() - KNOWN_ADDRESS_TTL_MS)
}

/**
 * Takes the one attempt allowed per `intervalMs` under `key`: 0 when taken, else the seconds until the next one.
 * One statement, so of simultaneous callers exactly one gets it.
 */
export async function claimInterval(key: string, intervalMs: number, now = new Date()): Promise<number> {
  const [claimed] = await db
    .insert(authAttempts)
    .values({ key, failures: 0, windowStartedAt: now })
    .onConflictDoUpdate({
      target: authAttempts.key,
      set: { windowStartedAt: now },
      setWhere: sql`${authAttempts.windowStartedAt} <= ${new Date(now.getTime() - intervalMs).toISOString()}::timestamptz`,
    })
    .returning()
  if (claimed) return 0
  const [row] = await db.select().from(authAttempts).where(eq(authAttempts.key, key)).limit(1)
  const nextAt = (row?.windowStartedAt.getTime() ?? now.getTime()) + intervalMs
  return Math.max(1, Math.ceil((nextAt - now.getTime()) / 1000))
}

/** A slot taken under a key, to give back when what it was taken for turns out not to count. */
export interface TakenSlot {
  key: string
  windowStartedAt: Date
}

export type SlotAnswer =
  | { allowed: true; slot: TakenSlot }
  | {
      allowed: false
      /** Seconds until the window ends. */
      retryAfterSeconds: number
    }

/**
 * Takes one of the `max` slots under `key` in its window of `windowMs` (the first slot after a window has passed
 * starts a new one): every rate limit and cap goes through here. One statement counts and answers, so of attempts
 * at once, on any connection or server, exactly the slots left are allowed. A refused attempt leaves the count at
 * `max` + 1 instead of counting on: it lets nothing more through, and the count cannot grow without end.
 */
export async function takeSlot(
  key: string,
  { max, windowMs, now = new Date() }: { max: number; windowMs: number; now?: Date },
): Promise<SlotAnswer> {
  const windowStart = new Date(now.getTime() - windowMs)
  const expired = sql`${authAttempts.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`
  const [row] = await db
    .insert(authAttempts)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: authAttempts.key,
      set: {
        failures: sql`case when ${expired} then 1 else least(${authAttempts.failures}, ${max}::integer) + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${authAttempts.windowStartedAt} end`,
      },
    })
    .returning({ count: authAttempts.failures, windowStartedAt: authAttempts.windowStartedAt })
  const { count, windowStartedAt } = row!
  if (count <= max) return { allowed: true, slot: { key, windowStartedAt } }
  const endsAt = windowStartedAt.getTime() + windowMs
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) }
}

/** Gives a taken slot back (its attempt did not count); nothing once its window has been replaced by a new one. */
export async function giveBackSlot({ key, windowStartedAt }: TakenSlot) {
  await db
    .update(authAttempts)
    .set({ failures: sql`greatest(${authAttempts.failures} - 1, 0)` })
    .where(and(eq(authAttempts.key, key), eq(authAttempts.windowStartedAt, windowStartedAt)))
}

export async function clearFailures(key: string) {
  await db.delete(authAttempts).where(eq(authAttempts.key, key))
}

/** Deletes the records whose window has passed (a known address after KNOWN_ADDRESS_TTL_MS); returns how many. */
export async function deleteExpiredAttempts({ windowMs = SIGN_IN_WINDOW_MS, now = new Date() } = {}) {
  const before = (ms: number) => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`
  const rows = await db
    .delete(authAttempts)
    .where(
      sql`${authAttempts.windowStartedAt} <= case
      when ${authAttempts.key} like 'signin-known:%' then ${before(KNOWN_ADDRESS_TTL_MS)}
      when ${authAttempts.key} like 'register:%' then ${before(Math.max(windowMs, REGISTRATION_WINDOW_MS))}
      when ${authAttempts.key} like 'subscribe:%' then ${before(Math.max(windowMs, SUBSCRIBE_WINDOW_MS))}
      when ${authAttempts.key} like 'subscribe-mail:%' then ${before(Math.max(windowMs, CONFIRMATION_MAIL_WINDOW_MS))}
      when ${authAttempts.key} like 'free-listing-%' then ${before(Math.max(windowMs, FREE_LISTING_WINDOW_MS))}
      when ${authAttempts.key} like 'link-fill:%' then ${before(Math.max(windowMs, LINK_FILL_WINDOW_MS))}
      when ${authAttempts.key} like 'form-stamp:%' then ${before(Math.max(windowMs, SIGNUP_FORM_MAX_AGE_MS))}
      else ${before(windowMs)} end`,
    )
    .returning({ key: authAttempts.key })
  return rows.length
}
