import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { authAttempts } from '#db/schema.ts'

export const SIGN_IN_MAX_FAILURES = 10
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000

/**
 * The client's address: the first X-Forwarded-For entry. server.js replaces whatever a client sent there with the
 * address it vouches for (the socket's, or a trusted proxy's word under TRUST_PROXY), so it cannot be forged through
 * the server. Without one, every client shares the key 'unknown' and the sign-in limit becomes per email.
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim()
  return forwarded ? forwarded.slice(0, 64) : 'unknown'
}

/** Keys are hashed so the table holds no email addresses. */
export function signInAttemptKey(email: string, ip: string) {
  const digest = crypto
    .createHash('sha256')
    .update(`${email.trim().toLowerCase()}\n${ip}`)
    .digest('base64url')
  return `signin:${digest}`
}

export interface LimitStatus {
  limited: boolean
  failures: number
  /** Seconds until the window ends (0 when not limited). */
  retryAfterSeconds: number
}

export async function checkLimit(
  key: string,
  { max = SIGN_IN_MAX_FAILURES, windowMs = SIGN_IN_WINDOW_MS, now = new Date() } = {},
): Promise<LimitStatus> {
  const [row] = await db.select().from(authAttempts).where(eq(authAttempts.key, key)).limit(1)
  if (!row) return { limited: false, failures: 0, retryAfterSeconds: 0 }
  const endsAt = row.windowStartedAt.getTime() + windowMs
  if (endsAt <= now.getTime()) return { limited: false, failures: 0, retryAfterSeconds: 0 }
  const limited = row.failures >= max
  return {
    limited,
    failures: row.failures,
    retryAfterSeconds: limited ? Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) : 0,
  }
}

/** Counts one failure; a failure after the window has passed starts a new window. One statement, so concurrent failures all count. */
export async function recordFailure(key: string, { windowMs = SIGN_IN_WINDOW_MS, now = new Date() } = {}) {
  const windowStart = new Date(now.getTime() - windowMs)
  const expired = sql`${authAttempts.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`
  const [row] = await db
    .insert(authAttempts)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: authAttempts.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${authAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${authAttempts.windowStartedAt} end`,
      },
    })
    .returning()
  return row!.failures
}

export async function clearFailures(key: string) {
  await db.delete(authAttempts).where(eq(authAttempts.key, key))
}

export async function deleteExpiredAttempts({ windowMs = SIGN_IN_WINDOW_MS, now = new Date() } = {}) {
  await db
    .delete(authAttempts)
    .where(
      sql`${authAttempts.windowStartedAt} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`,
    )
}
