import type { ErrorKind } from '#app/utils/app-error.ts'

/** The texts a failed save is answered with. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'Database service temporarily unavailable. Please try again in a moment.'
export const TIMEOUT_MESSAGE = 'Request timed out. Please check your connection and try again.'

export type DatabaseFailure = 'unavailable' | 'timeout' | 'other'

// SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html) and driver codes.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
])
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'CONNECT_TIMEOUT',
  '57014' /* query_canceled (statement_timeout) */,
])

function* causes(error: unknown) {
  let current = error
  for (let depth = 0; current && depth < 5; depth++) {
    yield current
    current = (current as { cause?: unknown }).cause
  }
}

/** Whether a failed query means the database is down, too slow, or something else. */
export function classifyDatabaseError(error: unknown): DatabaseFailure {
  for (const e of causes(error)) {
    const code = String((e as { code?: unknown }).code ?? '')
    const message = e instanceof Error ? e.message : ''
    if (TIMEOUT_CODES.has(code) || /timed? ?out/i.test(message)) return 'timeout'
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return 'unavailable'
    if (/database is not open|PGlite is closed|connection (terminated|closed|refused)/i.test(message)) {
      return 'unavailable'
    }
  }
  return 'other'
}

/** Whether the database could not be reached at all (down, restarting, or no connection within connect_timeout). */
export function isConnectionFailure(error: unknown) {
  if (classifyDatabaseError(error) === 'unavailable') return true
  for (const e of causes(error)) if ((e as { code?: unknown }).code === 'CONNECT_TIMEOUT') return true
  return false
}

/** The kind of failure and the text of a failed write; `fallback` covers what is neither an outage nor a timeout. */
export function databaseFailure(error: unknown, fallback: string): { kind: ErrorKind; message: string } {
  switch (classifyDatabaseError(error)) {
    case 'unavailable':
      return { kind: 'unavailable', message: DATABASE_UNAVAILABLE_MESSAGE }
    case 'timeout':
      return { kind: 'timed_out', message: TIMEOUT_MESSAGE }
    default:
      return { kind: 'unexpected', message: fallback }
  }
}
