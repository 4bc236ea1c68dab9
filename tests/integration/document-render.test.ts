import { beforeAll, describe, expect, test } from 'vitest'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let eventID: number

beforeAll(async () => {
  request = await builtRequestHandler()
  const today = platformToday()
  const owner = await insertBusiness(db, { businessName: 'Render Roastery' })
  const event = await insertTestEvent(owner, {
    eventTitle: 'Coffee Cupping',
    showAdOnDates: [today, addDaysIso(today, 2)],
  })
  eventID = event.eventID
}, BUILD_TIMEOUT_MS)

const pendingTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length

const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('rendering a page (built app)', () => {
  test('plain-HTML pages leave no timer behind once they are sent, for visitors and crawlers alike', async () => {
    const pages = [
      `/event/${eventID}?viewMode=true`,
      '/calendar',
      '/calendar?view=month',
      '/public',
      '/landing',
    ]
    // First renders load modules and start the app's own schedules.
    for (const page of pages) await (await request(page)).text()
    const before = pendingTimers()
    for (let round = 0; round < 4; round++)
      for (const page of pages)
        for (const headers of [{}, { 'User-Agent': CRAWLER }] as Array<Record<string, string>>) {
          const response = await request(page, { headers })
          expect(response.status, page).toBe(200)
          expect(await response.text(), page).toContain('</html>')
        }
    // Forty pages: a timer left by each (an abort deadline, an encoding nobody reads) would show as forty.
    expect(pendingTimers() - before).toBeLessThanOrEqual(2)
  })

  test('a plain-HTML page carries no loader data for a browser to read', async () => {
    const html = await (await request(`/event/${eventID}?viewMode=true`)).text()
    expect(html).toContain('Coffee Cupping')
    expect(html).not.toContain('__remixContext')
  })

  test('a page that runs in the browser still streams its loader data to it', async () => {
    const html = await (await request('/login')).text()
    expect(html).toContain('window.__remixContext.streamController.enqueue(')
    expect(html).toContain('window.__remixContext.streamController.close();')
  })
})
