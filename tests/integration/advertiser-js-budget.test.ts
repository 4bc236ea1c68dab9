import { beforeAll, describe, expect, test } from 'vitest'
import { db } from '#db/client.server.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { scriptsOf, totalGzipBytes } from '#tests/support/page-scripts.ts'

/** Advertisers sign in and manage ads on phones too: each of these pages hydrates at most this much script (gzip). */
const ADVERTISER_JS_BUDGET_BYTES = 90 * 1024

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let cookie: string

beforeAll(async () => {
  request = await builtRequestHandler()
  const business = await insertBusiness(db, { businessName: 'Budget Bikes' })
  cookie = await sessionCookieFor({ business })
}, BUILD_TIMEOUT_MS)

describe('JavaScript on the advertiser pages (built app)', () => {
  // /login and /create-account still load the form validation library up front, and are over this budget.
  test.each([['/dashboard', true], ['/login', false], ['/create-account', false]])(
    `%s loads at most ${ADVERTISER_JS_BUDGET_BYTES / 1024} KB of gzipped JavaScript`,
    async (page, signedIn) => {
      const response = await request(page, signedIn ? { headers: { Cookie: cookie } } : undefined)
      expect(response.status, page).toBe(200)
      const scripts = scriptsOf(await response.text())
      // A hydrated page: the framework's entry is among what is counted.
      expect(scripts.some((s) => s.name.includes('entry.client'))).toBe(true)
      const breakdown = scripts
        .toSorted((a, b) => b.gzipBytes - a.gzipBytes)
        .map((s) => `${String(s.gzipBytes).padStart(7)} B  ${s.kind} ${s.name}`)
        .join('\n')
      expect(totalGzipBytes(scripts), `${page} loads:\n${breakdown}`).toBeLessThanOrEqual(
        ADVERTISER_JS_BUDGET_BYTES,
      )
    },
  )
})
