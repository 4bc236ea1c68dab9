import crypto from 'node:crypto'
import { MEDIA_FALLBACK_SCRIPT } from '#app/utils/media-fallback.ts'
import { NEAR_ME_SCRIPT } from '#app/utils/near-me.ts'

export function createNonce() {
  return crypto.randomBytes(16).toString('base64')
}

/**
 * The media fallback and "Use my location" scripts are allowed by their hashes, not the request's nonce: they never
 * change, and a nonce in the body would keep /public and /calendar out of the shared page cache (a nonce must not be
 * shared between responses).
 */
const FIXED_SCRIPT_SOURCES = [MEDIA_FALLBACK_SCRIPT, NEAR_ME_SCRIPT]
  .map((script) => `'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`)
  .join(' ')

/**
 * Whether an answer keeps the value it set for a security header instead of the common one: a Referrer-Policy a
 * route chose (the subscription token pages send no-referrer, so the token in their address is never passed on).
 */
export function keepsOwnValue(name: string, answerHasIt: boolean) {
  return answerHasIt && name.toLowerCase() === 'referrer-policy'
}

/** Sets `security` on an answer's headers, but for the values the answer keeps (keepsOwnValue). */
export function applySecurityHeaders(answer: Headers, security: Headers) {
  security.forEach((value, name) => {
    if (!keepsOwnValue(name, answer.has(name))) answer.set(name, value)
  })
}

/**
 * Headers every HTML page gets; scripts only run with this request's nonce (or, for that one script, its hash). No
 * other site may frame a page, except one made to be framed (`frameable`: the partners' embed), which any site may.
 * Without a nonce (`null`): the same headers for every other answer (JSON, files, refusals), which runs no inline
 * script.
 */
export function securityHeaders(
  nonce: string | null,
  { isProduction }: { isProduction: boolean },
  { frameable = false }: { frameable?: boolean } = {},
) {
  const connectSrc = isProduction ? "'self'" : "'self' ws: wss:"
  const csp = [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''} ${FIXED_SCRIPT_SOURCES} https://js.stripe.com`,
    // No inline styles: a style attribute in the HTML is refused (React's style={} set from script is not).
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src ${connectSrc} https://api.stripe.com`,
    // 'self': the embed's preview on /embed.
    "frame-src 'self' https://js.stripe.com https://hooks.stripe.com",
    frameable ? 'frame-ancestors *' : "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
  const headers = new Headers({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    // Geolocation for this site's own pages only: the calendar's "Use my location".
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self)',
  })
  // X-Frame-Options has no "anyone": a frameable page sends none (frame-ancestors speaks for it).
  if (!frameable) headers.set('X-Frame-Options', 'DENY')
  if (isProduction) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  return headers
}
