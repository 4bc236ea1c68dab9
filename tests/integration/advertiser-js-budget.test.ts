import { beforeAll, describe, expect, test } from 'vitest'
import { db } from '#db/client.server.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { scriptsOf, totalGzipBytes } from '#tests/support/page-scripts.ts'

/**
 * Advertisers sign in and manage ads on phones too: each of these pages hydrates at most this much script (gzip);
 * 91 KB since the framework's fetcher runtime is shared (docs/decisions/048).
 */
const ADVERTISER_JS_BUDGET_BYTES = 91 * 1024
/**
 * The event form's page: the framework, the form, the date picker and the customer card (102 KB when set), the
 * practical facts' fields and rules (3.5 KB), the repeat dates (1 KB), and the times with the card's status label
 * (2 KB): docs/decisions/035; the free listing and category price rules and "Fill from a link" (7.6 KB):
 * docs/decisions/048.
 */
const EVENT_FORM_JS_BUDGET_BYTES = 120 * 1024

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let cookie: string

beforeAll(async () => {
  request = await builtRequestHandler()
  const business = await insertBusiness(db, { businessName: 'Budget Bikes' })
  cookie = await sessionCookieFor({ business })
}, BUILD_TIMEOUT_MS)

describe('JavaScript on the advertiser pages (built app)', () => {
  // The event form checks its fields with zod-free rules too: the schema library (24 KB gzip) stays on the server.
  test.each([
    ['/dashboard', true, ADVERTISER_JS_BUDGET_BYTES],
    ['/login', false, ADVERTISER_JS_BUDGET_BYTES],
    ['/create-account', false, ADVERTISER_JS_BUDGET_BYTES],
    ['/dashboard/events/new', true, EVENT_FORM_JS_BUDGET_BYTES],
  ])(`%s loads at most its budget of gzipped JavaScript`, async (page, signedIn, budget) => {
    const response = await request(page, signedIn ? { headers: { Cookie: cookie } } : undefined)
    expect(response.status, page).toBe(200)
    const scripts = scriptsOf(await response.text())
    // A hydrated page: the framework's entry is among what is counted.
    expect(scripts.some((s) => s.name.includes('entry.client'))).toBe(true)
    const breakdown = scripts
      .toSorted((a, b) => b.gzipBytes - a.gzipBytes)
      .map((s) => `${String(s.gzipBytes).padStart(7)} B  ${s.kind} ${s.name}`)
      .join('\n')
    expect(totalGzipBytes(scripts), `${page} loads:\n${breakdown}`).toBeLessThanOrEqual(budget)
  })
})
