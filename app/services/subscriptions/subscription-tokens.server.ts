/**
 * The links of a subscriber's emails carry a token, never the address: the subscription's id and what the link may
 * do, signed (HMAC-SHA256) with the session secret (SESSION_SECRET; the first of a rotation signs, any verifies). A
 * confirmation link expires after 48 hours; a manage link lasts as long as its subscription.
 */
import crypto from 'node:crypto'
import { getEnv } from '../platform/env.server.ts'

export type TokenPurpose = 'confirm' | 'manage'

export const CONFIRM_TOKEN_TTL_MS = 48 * 60 * 60 * 1000
/** Longer than any token this module makes: longer input is refused before it is read. */
const TOKEN_MAX_LENGTH = 200

interface TokenPayload {
  id: number
  purpose: TokenPurpose
  /** Epoch seconds; 0 = no expiry. */
  expires: number
}

function signature(secret: string, body: string) {
  return crypto.createHmac('sha256', secret).update(`subscription-token\n${body}`).digest('base64url')
}

export function signSubscriptionToken(id: number, purpose: TokenPurpose, now = new Date()) {
  const expires = purpose === 'confirm' ? Math.floor((now.getTime() + CONFIRM_TOKEN_TTL_MS) / 1000) : 0
  const body = `${id}.${purpose}.${expires}`
  return `${body}.${signature(getEnv().sessionSecrets[0]!, body)}`
}

/** The subscription's id when `token` is a valid, unexpired token for `purpose`; null otherwise. */
export function verifySubscriptionToken(
  token: string | null | undefined,
  purpose: TokenPurpose,
  now = new Date(),
): number | null {
  if (!token || token.length > TOKEN_MAX_LENGTH) return null
  const match = /^(\d{1,10})\.(confirm|manage)\.(\d{1,12})\.([\w-]{43})$/.exec(token)
  if (!match) return null
  const [, id, tokenPurpose, expires, given] = match as unknown as [string, string, string, string, string]
  const payload: TokenPayload = {
    id: Number(id),
    purpose: tokenPurpose as TokenPurpose,
    expires: Number(expires),
  }
  if (payload.purpose !== purpose || payload.id < 1 || payload.id > 2_147_483_647) return null
  const body = `${id}.${tokenPurpose}.${expires}`
  const signed = getEnv().sessionSecrets.some((secret) =>
    crypto.timingSafeEqual(Buffer.from(signature(secret, body)), Buffer.from(given)),
  )
  if (!signed) return null
  if (payload.expires !== 0 && payload.expires * 1000 <= now.getTime()) return null
  if (purpose === 'confirm' && payload.expires === 0) return null
  return payload.id
}
