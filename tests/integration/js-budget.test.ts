import crypto from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { attribute, DATA_SCRIPT_TYPES, type LoadedScript, scriptsOf } from '#tests/support/page-scripts.ts'

/** Public pages serve visitors on low-end devices: all of them together load at most this much script (gzip). */
const JS_BUDGET_BYTES = 5 * 1024

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let eventID: number

beforeAll(async () => {
  request = await builtRequestHandler()
  const today = platformToday()
  const owner = await insertBusiness(db, {
    businessName: 'Budget Bakery',
    businessWebsite: 'https://bakery.example',
  })
  const event = await insertTestEvent(owner, {
    eventTitle: 'Bread Festival',
    eventDescription: 'Fresh loaves all weekend.',
    showAdOnDates: [today, addDaysIso(today, 1)],
    stillPhotoURL: '/api/media/2026-01-01_1.webp',
    videoURL: '/api/media/2026-01-01_1.mp4',
  })
  eventID = event.eventID
}, BUILD_TIMEOUT_MS)

describe('JavaScript on the public pages (built app)', () => {
  const pages = () => [
    '/public',
    '/calendar',
    '/calendar?view=month',
    `/event/${eventID}?viewMode=true`,
    '/landing',
    '/embed',
    '/embed/calendar',
  ]

  test(`together they load at most ${JS_BUDGET_BYTES} bytes of gzipped JavaScript`, async () => {
    const report: Array<{ page: string; scripts: LoadedScript[]; total: number }> = []
    for (const page of pages()) {
      const response = await request(page)
      expect(response.status, page).toBe(200)
      const html = await response.text()
      const scripts = scriptsOf(html)
      report.push({ page, scripts, total: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) })
    }
    const total = report.reduce((sum, r) => sum + r.total, 0)
    const summary = report.map(
      (r) => `${r.page}: ${r.total} B (${r.scripts.map((s) => `${s.kind} ${s.name}`).join(', ') || 'none'})`,
    )
    expect(total, `JavaScript loaded:\n${summary.join('\n')}`).toBeLessThanOrEqual(JS_BUDGET_BYTES)
  })

  test('the event page runs two small scripts: the media fallback (allowed by its CSP hash) and the bounce beacon (nonce)', async () => {
    const response = await request(`/event/${eventID}?viewMode=true`)
    const html = await response.text()
    const csp = response.headers.get('Content-Security-Policy') ?? ''
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      ([, attributes = '']) => !DATA_SCRIPT_TYPES.has((attribute(attributes, 'type') ?? '').toLowerCase()),
    )
    expect(scripts).toHaveLength(2)
    const [fallback, beacon] = scripts.map(([, attributes = '', body = '']) => ({ attributes, body }))

    expect(fallback!.body).toContain('addEventListener("error"')
    expect(attribute(fallback!.attributes, 'nonce')).toBeNull()
    expect(csp).toContain(`'sha256-${crypto.createHash('sha256').update(fallback!.body).digest('base64')}'`)
    expect(fallback!.body.length).toBeLessThan(700)

    expect(attribute(beacon!.attributes, 'nonce')).toBe(nonce)
    expect(beacon!.body).toContain(`/api/events/${eventID}/track-bounce`)
    expect(beacon!.body).toContain('sendBeacon')
    expect(beacon!.body.length).toBeLessThan(700)
  })

  test('the media fallback script comes first in the head, before any media, and carries no nonce on shared pages', async () => {
    for (const page of ['/public', '/calendar', '/landing']) {
      const response = await request(page)
      const html = await response.text()
      const head = html.slice(0, html.indexOf('</head>'))
      const first = /<script\b([^>]*)>([\s\S]*?)<\/script>/i.exec(head)
      expect(first?.[2], page).toContain('addEventListener("error"')
      expect(head.indexOf('<script'), page).toBeLessThan(head.indexOf('<link'))
      // A nonce in the body would keep the page out of the shared page cache.
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1]
      expect(nonce && html.includes(nonce), page).toBeFalsy()
    }
  })

  test("the partners' embed runs no script at all; the page that offers it only the media fallback", async () => {
    expect(scriptsOf(await (await request('/embed/calendar')).text())).toEqual([])
    const offer = scriptsOf(await (await request('/embed')).text())
    expect(offer).toEqual([
      expect.objectContaining({ kind: 'inline', name: expect.stringContaining('addEventListener') }),
    ])
  })

  test('the budget counts what the pages really load (a hydrated page is far over it)', async () => {
    const html = await (await request('/login')).text()
    const total = scriptsOf(html).reduce((sum, s) => sum + s.gzipBytes, 0)
    expect(total).toBeGreaterThan(JS_BUDGET_BYTES)
  })
})
