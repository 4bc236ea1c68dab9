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

/** Only same-site relative paths, so `redirectTo` cannot send a user elsewhere. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (!to || typeof to !== 'string') return fallback
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}
