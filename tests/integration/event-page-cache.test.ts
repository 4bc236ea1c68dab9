import { beforeAll, describe, expect, test } from 'vitest'
import { keepPage, lookupPage } from '#app/services/http/page-cache.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import type { Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let owner: Business
let liveID: number
let pendingID: number

beforeAll(async () => {
  request = await builtRequestHandler()
  const today = platformToday()
  owner = await insertBusiness(db, { businessName: 'Cache Creamery' })
  const live = await insertTestEvent(owner, {
    eventTitle: 'Ice Cream Social',
    showAdOnDates: [today, addDaysIso(today, 1)],
  })
  const pending = await insertTestEvent(owner, {
    eventTitle: 'Secret Sundae Launch',
    showAdOnDates: [today],
    eventStatus: 'pending',
  })
  liveID = live.eventID
  pendingID = pending.eventID
}, BUILD_TIMEOUT_MS)

/** The page as server.js handles it: stored in the shared page cache when it may be, then looked up again. */
async function throughPageCache(path: string, headers: Record<string, string> = {}) {
  const req = { method: 'GET', url: `cache.test${path}`, hasCookie: 'Cookie' in headers }
  const response = await keepPage(req, await request(path, { headers }))
  return { response, stored: lookupPage({ ...req, hasCookie: false }) }
}

describe('the event page and the shared page cache (built app)', () => {
  test('a live event seen without cookies is stored and served again, with a fresh nonce for its beacon', async () => {
    const path = `/event/${liveID}?viewMode=true`
    const { response, stored } = await throughPageCache(path)
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toMatch(/s-maxage=\d+/)
    expect(stored?.status).toBe(200)
    const html = stored!.body.toString()
    expect(html).toContain('Ice Cream Social')
    expect(html).toContain(`/api/events/${liveID}/track-bounce`)
    const nonce = /'nonce-([^']+)'/.exec(new Map(stored!.headers).get('content-security-policy') ?? '')?.[1]
    expect(nonce && html.includes(`nonce="${nonce}"`)).toBeTruthy()
    expect(nonce && (await response.clone().text()).includes(nonce)).toBeFalsy()
  })

  test('an unpublished ad is a 404 to visitors, and nothing of it is stored', async () => {
    const path = `/event/${pendingID}?viewMode=true`
    const { response, stored } = await throughPageCache(path)
    expect(response.status).toBe(404)
    expect(stored).toBeUndefined()
  })

  test("the owner's preview of an unpublished ad is private and never stored", async () => {
    const path = `/event/${pendingID}?viewMode=true`
    const cookie = await sessionCookieFor({ business: owner })
    const { response, stored } = await throughPageCache(path, { Cookie: cookie })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Secret Sundae Launch')
    expect(response.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(stored).toBeUndefined()
  })
})
