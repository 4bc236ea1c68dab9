import { data } from '@remix-run/node'
import { AppError, type ErrorKind } from '#app/utils/app-error.ts'
import { databaseFailure } from '../platform/database-errors.server.ts'
import { noteRequestError } from '../platform/database-health.server.ts'
import { logError } from '../platform/logger.server.ts'
import { statusOfError } from './error-status.server.ts'
import { REQUEST_ID_HEADER } from './request-log.server.ts'

export function combineHeaders(...sources: Array<HeadersInit | null | undefined>) {
  const combined = new Headers()
  for (const source of sources) {
    if (!source) continue
    new Headers(source).forEach((value, key) => combined.append(key, value))
  }
  return combined
}

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong. Please try again.'

export interface ErrorAnswerOptions {
  /** The request that failed: its id goes with the log line of an unexpected failure. */
  request?: Request
  /**
   * What an unexpected failure (anything but an AppError) is answered with: the database's outages are 503 and its
   * timeouts 504 with the outage texts; anything else this message, 500 unless `unexpectedKind` says otherwise.
   */
  unexpectedMessage?: string
  unexpectedKind?: ErrorKind
  /** The log line of an unexpected failure (its message, type and stack; never in the answer). */
  logAs?: string
  /** Logs an unexpected failure instead of the log line (the patient records log no message of it). */
  log?: (error: unknown) => void
  /** Headers of every answer, a passed-through Response's included (no-store). */
  headers?: HeadersInit
  /** Fields a call's error answer has beside `message`, where its shape is fixed (`{ success: false }`). */
  fields?: (error: AppError) => Record<string, unknown>
  /** Leaves the field errors out, for a call whose refusals are its message alone (the media uploads). */
  omitFieldErrors?: boolean
}

/**
 * The unexpected failure as the refusal it is answered with. A database outage or timeout is told to the database's
 * health check (which answers 503 while it lasts) and answered with its outage text; anything else is logged once
 * (see {@link ErrorAnswerOptions}).
 */
function unexpectedFailure(error: unknown, options: ErrorAnswerOptions): AppError {
  noteRequestError(error)
  const failure = databaseFailure(error, options.unexpectedMessage ?? UNEXPECTED_ERROR_MESSAGE)
  if (failure.kind !== 'unexpected') return new AppError(failure.message, failure.kind, { cause: error })
  if (options.log) options.log(error)
  else {
    const requestId = options.request?.headers.get(REQUEST_ID_HEADER) ?? undefined
    logError(error, { requestId, ...(options.logAs ? { msg: options.logAs } : {}) })
  }
  return new AppError(failure.message, options.unexpectedKind ?? 'unexpected', { cause: error })
}

/** Logs a failure of the server's own that is answered as a refusal (a full disk), with the request's id. */
export function logServerFault(error: AppError, request: Request | undefined) {
  if (!error.serverFault) return
  const requestId = request?.headers.get(REQUEST_ID_HEADER) ?? undefined
  logError(error, { ...error.serverFault.fields, requestId, msg: error.serverFault.msg })
}

/**
 * The one conversion of a failure into a route's answer (docs/decisions/006-one-application-error.md). Whatever a
 * loader or action caught:
 * - a Response (a sign-in redirect, a page's 404) is answered as it is;
 * - an {@link AppError} is answered with its status and JSON `{ message, code?, title?, errors? }`, with Retry-After
 *   and Allow when it carries them; one that is a fault of the server's own (a full disk) is logged too;
 * - anything else is logged (never answered: no stack, no query) and answered 503/504 for a database outage or
 *   timeout, otherwise 500 with `unexpectedMessage`.
 * A page loader throws the answer (its error boundary shows `message`); a page that shows the refusal itself (a
 * form's errors) passes `reply` and gets its data under the same status and headers, while a thrown Response (a
 * redirect) stays thrown.
 */
export function errorResponse<T>(
  thrown: unknown,
  options: ErrorAnswerOptions & { reply: (error: AppError) => T },
): ReturnType<typeof data<T>>
export function errorResponse(thrown: unknown, options?: ErrorAnswerOptions): Response
export function errorResponse<T>(
  thrown: unknown,
  options: ErrorAnswerOptions & { reply?: (error: AppError) => T } = {},
): Response | ReturnType<typeof data<T>> {
  if (thrown instanceof Response && options.reply) throw thrown
  if (thrown instanceof Response) {
    if (!options.headers) return thrown
    return new Response(thrown.body, {
      status: thrown.status,
      statusText: thrown.statusText,
      headers: combineHeaders(thrown.headers, options.headers),
    })
  }
  const error = thrown instanceof AppError ? thrown : unexpectedFailure(thrown, options)
  logServerFault(error, options.request)
  const headers = new Headers(options.headers)
  if (error.retryAfterSeconds) headers.set('Retry-After', String(error.retryAfterSeconds))
  if (error.allow) headers.set('Allow', error.allow)
  const status = statusOfError(error)
  if (options.reply) return data(options.reply(error), { status, headers })
  const hasFieldErrors = !options.omitFieldErrors && Object.keys(error.fieldErrors).length > 0
  return Response.json(
    {
      ...options.fields?.(error),
      message: error.message,
      ...(error.code ? { code: error.code } : {}),
      ...(error.title ? { title: error.title } : {}),
      ...(hasFieldErrors ? { errors: error.fieldErrors } : {}),
    },
    { status, headers },
  )
}

/** Control characters (browsers drop tab, CR and LF inside URLs) and backslashes (read as `/` in http URLs). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const UNSAFE_IN_REDIRECT = /[\u0000-\u001f\u007f\\]/
const OWN_ORIGIN = 'http://same-site.invalid'

/** `value` and what it decodes to, once and twice (`%252F` → `%2F` → `/`); undefined when it does not decode. */
function decodedForms(value: string): string[] | undefined {
  const forms = [value]
  for (let i = 0; i < 2; i++) {
    try {
      const next = decodeURIComponent(forms.at(-1)!)
      if (next === forms.at(-1)) break
      forms.push(next)
    } catch {
      return undefined
    }
  }
  return forms
}

/**
 * Where to send a user back to: `to` when it is a path on this site, otherwise `fallback`. Judged as the browser
 * would read it and as any decoding would: a tab, CR, LF or backslash, a leading `//` (another host), an encoded form
 * of those, or an absolute URL all fall back. Every `redirectTo` goes through here.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (!to || typeof to !== 'string') return fallback
  const forms = decodedForms(to)
  if (!forms) return fallback
  for (const form of forms) {
    if (!form.startsWith('/') || form.startsWith('//') || UNSAFE_IN_REDIRECT.test(form)) return fallback
  }
  if (new URL(to, OWN_ORIGIN).origin !== OWN_ORIGIN) return fallback
  return to
}

/**
 * The paging headers of a JSON list: X-Total-Count, X-Page, X-Page-Count and a Link header with rel="next"/"prev"
 * (root-relative URLs that keep every other query parameter of the request).
 */
export function pageHeaders(
  requestUrl: string,
  { page, pageCount, total }: { page: number; pageCount: number; total: number },
) {
  const headers = new Headers({
    'X-Total-Count': String(total),
    'X-Page': String(page),
    'X-Page-Count': String(pageCount),
  })
  const link = (target: number, rel: string) => {
    const to = new URL(requestUrl)
    to.searchParams.set('page', String(target))
    return `<${to.pathname}${to.search}>; rel="${rel}"`
  }
  const links = [
    ...(page < pageCount ? [link(page + 1, 'next')] : []),
    ...(page > 1 ? [link(Math.min(page - 1, pageCount), 'prev')] : []),
  ]
  if (links.length) headers.set('Link', links.join(', '))
  return headers
}
