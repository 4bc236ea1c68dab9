/**
 * "Use my location" on /calendar: the browser posts its position, the server answers with the calendar near the
 * closest ZIP (real ZIP centres, loaded by the migrations), keeping the other filters; the position is never in a URL.
 */
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as calendarAction } from '#app/routes/calendar.tsx'
import { BAD_POSITION_MESSAGE, NO_ZIP_NEAR_YOU_MESSAGE } from '#app/services/calendar/calendar-page.server.ts'
import { NEAR_ME_SCRIPT } from '#app/utils/near-me.ts'
import { db } from '#db/client.server.ts'
import { zipCentroids } from '#db/schema.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { callRoute } from '#tests/support/routes.ts'

const SPRINGFIELD = '62704'
let centre: { latitude: number; longitude: number }
let request: Awaited<ReturnType<typeof builtRequestHandler>>

beforeAll(async () => {
  const [row] = await db.select().from(zipCentroids).where(eq(zipCentroids.zip, SPRINGFIELD))
  centre = row!
  request = await builtRequestHandler()
}, BUILD_TIMEOUT_MS)

function postPosition(path: string, position: Record<string, string>) {
  return callRoute(calendarAction, path, { method: 'POST', body: new URLSearchParams(position) })
}

describe('POST /calendar with a position', () => {
  test('goes to the calendar near the closest ZIP, with the other filters kept and the page and old ZIP dropped', async () => {
    const res = await postPosition(
      '/calendar?keyword=&category=Concert&radius=25&near=10001&page=3&view=month',
      {
        lat: (centre.latitude + 0.001).toFixed(4),
        lng: (centre.longitude - 0.001).toFixed(4),
      },
    )
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('Location')!, 'http://localhost')
    expect(location.pathname).toBe('/calendar')
    expect(Object.fromEntries(location.searchParams)).toEqual({
      category: 'Concert',
      radius: '25',
      view: 'month',
      near: SPRINGFIELD,
    })
    expect(location.search).not.toMatch(/lat|lng/)
  })

  test('a position far from any US ZIP comes back to the calendar with a message, and no ZIP', async () => {
    const res = await postPosition('/calendar?category=Concert', { lat: '0', lng: '0' })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/calendar?category=Concert')
    // The message travels in the toast cookie, shown on the next page.
    expect(res.headers.get('Set-Cookie')).toBeTruthy()
    const page = await request('/calendar?category=Concert', {
      headers: { Cookie: res.headers.get('Set-Cookie')!.split(';')[0]! },
    })
    expect(await page.text()).toContain(NO_ZIP_NEAR_YOU_MESSAGE.replace(/"/g, '&quot;'))
  })

  test('a missing, malformed or impossible position is a 400 saying so', async () => {
    const positions: Array<Record<string, string>> = [
      {},
      { lat: '40' },
      { lat: 'north', lng: '-90' },
      { lat: '91', lng: '-90' },
      { lat: '40', lng: '-181' },
      { lat: '', lng: '' },
      { lat: 'Infinity', lng: '1' },
    ]
    for (const position of positions) {
      const res = await postPosition('/calendar', position)
      expect(res.status, JSON.stringify(position)).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBe(BAD_POSITION_MESSAGE)
    }
  })
})

describe('the calendar page', () => {
  test('has the hidden "Use my location" button and its script, which the page allows by its hash', async () => {
    const res = await request('/calendar')
    const html = await res.text()
    expect(html).toMatch(/<button type="button" hidden="" data-near-me=""[^>]*>Use my location<\/button>/)
    expect(html).toContain(`<script>${NEAR_ME_SCRIPT}</script>`)
    const hash = crypto.createHash('sha256').update(NEAR_ME_SCRIPT).digest('base64')
    expect(res.headers.get('Content-Security-Policy')).toContain(`'sha256-${hash}'`)
  })
})
