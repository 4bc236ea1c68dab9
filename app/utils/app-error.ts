/**
 * The one application error: a refusal the user can read, with the HTTP status it is answered with. Any layer may
 * throw it (a model's duplicate email, a service's "already paid"); the route turns it into a response with
 * {@link appErrorResponse}, so the status and wording are decided where the rule is, once.
 */

export type FieldErrors = Record<string, string[]>

export interface AppErrorOptions {
  /** A short reason a client can branch on (`already_paid`, `card_declined`). */
  code?: string
  /** Messages per form field, in conform's shape. */
  fieldErrors?: FieldErrors
  /** Sent as Retry-After (429, 503). */
  retryAfterSeconds?: number
  cause?: unknown
}

export class AppError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly fieldErrors: FieldErrors
  readonly retryAfterSeconds: number | undefined

  constructor(message: string, status = 400, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = status
    this.code = options.code
    this.fieldErrors = options.fieldErrors ?? {}
    this.retryAfterSeconds = options.retryAfterSeconds
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

/** Throws an {@link AppError} unless `condition` holds (404 by default: a lookup that found nothing). */
export function invariantAppError(
  condition: unknown,
  message: string,
  status = 404,
  options?: AppErrorOptions,
): asserts condition {
  if (!condition) throw new AppError(message, status, options)
}

/**
 * The one conversion to a response: JSON `{ message, code?, errors? }` with the error's status (and Retry-After).
 * API calls return it; page loaders throw it, and the route's error boundary shows `message`.
 */
export function appErrorResponse(error: AppError, init: { headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers)
  if (error.retryAfterSeconds) headers.set('Retry-After', String(error.retryAfterSeconds))
  const hasFieldErrors = Object.keys(error.fieldErrors).length > 0
  return Response.json(
    {
      message: error.message,
      ...(error.code ? { code: error.code } : {}),
      ...(hasFieldErrors ? { errors: error.fieldErrors } : {}),
    },
    { status: error.status, headers },
  )
}
