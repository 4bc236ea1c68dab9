export function combineHeaders(...sources: Array<HeadersInit | null | undefined>) {
  const combined = new Headers()
  for (const source of sources) {
    if (!source) continue
    new Headers(source).forEach((value, key) => combined.append(key, value))
  }
  return combined
}

/** A JSON error body the client can show: `{ message }`. */
export function jsonError(message: string, status: number, extra?: Record<string, unknown>) {
  return Response.json({ message, ...extra }, { status })
}

/** Throws a JSON Response (works in page and resource routes alike) when a lookup failed (404 by default). */
export function invariantResponse(
  condition: unknown,
  message: string,
  init: ResponseInit = { status: 404 },
): asserts condition {
  if (!condition) {
    throw Response.json({ message }, init)
  }
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

export function methodNotAllowed(allow: string) {
  return Response.json({ message: 'Method not allowed' }, { status: 405, headers: { Allow: allow } })
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
