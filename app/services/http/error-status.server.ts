import type { AppError, ErrorKind } from '#app/utils/app-error.ts'

/** The HTTP status each kind of refusal is answered with: the one place a refusal's status is chosen. */
export const STATUS_OF_KIND = {
  invalid: 400,
  unauthenticated: 401,
  payment_refused: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unexpected: 500,
  upstream_failed: 502,
  unavailable: 503,
  timed_out: 504,
  insufficient_storage: 507,
} as const satisfies Record<ErrorKind, number>

export function statusOfError(error: AppError): number {
  return STATUS_OF_KIND[error.kind]
}
