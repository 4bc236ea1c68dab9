/**
 * The one application error: a refusal the user can read, with the kind of refusal it is. Any layer may throw it (a
 * model's duplicate email, a service's "already paid", the body reader's "too large"); the route turns whatever was
 * thrown into its answer with `errorResponse` (app/services/http/http.server.ts). The wording is decided where the
 * rule is; the HTTP status of each kind only in app/services/http/error-status.server.ts.
 */

/** What kind of refusal an error is; each is answered with one HTTP status (`statusOfError`). */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'payment_refused'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unexpected'
  | 'upstream_failed'
  | 'unavailable'
  | 'timed_out'
  | 'insufficient_storage'

export type FieldErrors = Record<string, string[]>

export interface AppErrorOptions {
  /** A short reason a client can branch on (`already_paid`, `card_declined`). */
  code?: string
  /** Messages per form field, in conform's shape. */
  fieldErrors?: FieldErrors
  /** Sent as Retry-After (429, 503). */
  retryAfterSeconds?: number
  /** Sent as Allow: the methods a 405 accepts. */
  allow?: string
  /** The heading a client shows above the message (a toast's title: "Login Failed"). */
  title?: string
  cause?: unknown
  /**
   * A failure of the server's own (its disk full, its media store unreachable), not a refusal of the request: it is
   * answered with its message, and logged at error level with the request id, `msg` and `fields`.
   */
  serverFault?: ServerFault
}

export interface ServerFault {
  msg: string
  fields?: Record<string, string>
}

export class AppError extends Error {
  readonly kind: ErrorKind
  readonly code: string | undefined
  readonly fieldErrors: FieldErrors
  readonly retryAfterSeconds: number | undefined
  readonly allow: string | undefined
  readonly title: string | undefined
  readonly serverFault: ServerFault | undefined

  constructor(message: string, kind: ErrorKind = 'invalid', options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.kind = kind
    this.code = options.code
    this.fieldErrors = options.fieldErrors ?? {}
    this.retryAfterSeconds = options.retryAfterSeconds
    this.allow = options.allow
    this.title = options.title
    this.serverFault = options.serverFault
  }

  /** The same error with its messages per form field. */
  withFieldErrors(fieldErrors: FieldErrors): AppError {
    return new AppError(this.message, this.kind, {
      code: this.code,
      fieldErrors,
      retryAfterSeconds: this.retryAfterSeconds,
      allow: this.allow,
      title: this.title,
      cause: this.cause,
      serverFault: this.serverFault,
    })
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

/** Throws an {@link AppError} unless `condition` holds (not found by default: a lookup that found nothing). */
export function invariantAppError(
  condition: unknown,
  message: string,
  kind: ErrorKind = 'not_found',
  options?: AppErrorOptions,
): asserts condition {
  if (!condition) throw new AppError(message, kind, options)
}

export const METHOD_NOT_ALLOWED_MESSAGE = 'Method not allowed'

/** The one 405: the methods the address accepts travel as Allow. */
export function methodNotAllowed(allow: string, message = METHOD_NOT_ALLOWED_MESSAGE) {
  return new AppError(message, 'method_not_allowed', { allow })
}
