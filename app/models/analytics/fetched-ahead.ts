/** The request headers that say a page is fetched ahead of a visit: speculation rules, `<link rel=prefetch>`, previews. */
const PURPOSE_HEADERS = ['Sec-Purpose', 'Purpose', 'X-Purpose', 'X-Moz'] as const

/**
 * Fetched ahead of a visit that may never come (a prefetch, a prerender, a link preview): not a view, a click or a
 * scan. `header` reads a request header by name.
 */
export function isFetchedAhead(header: (name: string) => string | null | undefined): boolean {
  return PURPOSE_HEADERS.some((name) => /prefetch|prerender|preview/i.test(header(name) ?? ''))
}
