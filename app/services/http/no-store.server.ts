import type { HeadersFunction } from '@remix-run/node'

/** What must never sit in a browser or proxy cache (patient data): the header of every answer. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const

/** For the `headers` export of a page that is never cached (document and data requests alike). */
export const noStoreHeaders: HeadersFunction = () => NO_STORE
