/**
 * What an operator gets from the built server: GET /metrics behind its bearer token, a request id on every answer
 * and log line, and log lines that hold no personal data.
 *
 * Two servers: one in this process on this file's database (no METRICS_TOKEN, TRUST_PROXY=loopback; its error lines
 * reach console.error, where this file reads them), and one child process on an embedded database of its own
 * (METRICS_TOKEN set, no trusted proxy; its stdout is the log read here).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { registry, scrapeMetrics } from '#app/services/platform/metrics.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { db, getDatabaseHandle, openEmbeddedDatabase, useDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { outbox } from '#db/schema.ts'
import { BUILD_TIMEOUT_MS, ensureBuild } from '#tests/support/built-app.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { startRunningServer } from '#tests/support/running-server.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const TOKEN = crypto.randomBytes(24).toString('hex')
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const HOUR_S = 3600

let inProcess: string
let child: ServerProcess
let liveEventID: number
const dataDir = path.join(TMP_DIR, `metrics-and-logs-${process.pid}`)

/** The child's data folder, made before it starts: a live ad, a paid ad waiting two hours for review, one email queued an hour ago. */
async function prepareChildDatabase() {
  fs.rmSync(dataDir, { recursive: true, force: true })
  const testDatabase = getDatabaseHandle()
  const embedded = await openEmbeddedDatabase(dataDir)
  useDatabase(embedded)
  try {
    const owner = await insertBusiness(db, { businessName: 'Metrics Cafe' })
    const live = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(platformToday(), 1)] })
    liveEventID = live.eventID
    await insertTestEvent(owner, {
      eventStatus: 'pending',
      showAdOnDates: [addDaysIso(platformToday(), 3)],
      createdDate: new Date(Date.now() - 2 * HOUR_S * 1000),
    })
    await db.insert(outbox).values({
      kind: 'test',
      toAddress: 'someone@example.com',
      subject: 'Queued',
      textBody: 'Queued',
      htmlBody: '<p>Queued</p>',
      createdAt: new Date(Date.now() - HOUR_S * 1000),
    })
  } finally {
    useDatabase(testDatabase)
    await embedded.close()
  }
}

beforeAll(async () => {
  await ensureBuild()
  await prepareChildDatabase()
  child = await startServerProcess({
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_ENV: 'test',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      METRICS_TOKEN: TOKEN,
      TRUST_PROXY: '',
      LOG_FORMAT: '',
      LOG_LEVEL: 'info',
    },
    stdout: 'keep',
  })
  process.env.TRUST_PROXY = 'loopback'
  delete process.env.METRICS_TOKEN
  inProcess = await startRunningServer()
}, BUILD_TIMEOUT_MS)

afterAll(async () => {
  if (child) await stopServer(child.server)
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const scrape = (authorization?: string) =>
  fetch(`${child.base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} })

/** The child's request log lines (its stdout also holds a few plain start-up messages). */
function logLines() {
  return child
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function logLineOf(requestId: string) {
  await expect.poll(() => logLines().some((line) => line.requestId === requestId)).toBe(true)
  return logLines().find((line) => line.requestId === requestId)!
}

/** The value of one sample in the exposition text, e.g. `eventshout_outbox_pending_messages`. */
function sample(text: string, name: string) {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

describe('GET /metrics', () => {
  test('404 when no METRICS_TOKEN is configured, with or without a token', async () => {
    expect((await fetch(`${inProcess}/metrics`)).status).toBe(404)
    const res = await fetch(`${inProcess}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('eventshout_')
  })

  test('401 with WWW-Authenticate: Bearer for a missing, wrong or malformed token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-some-length',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]) {
      const res = await scrape(authorization)
      expect(res.status, authorization).toBe(401)
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer/)
      expect(await res.text()).not.toContain('eventshout_')
    }
  })

  test('200 with the token: every metric family, with values that follow what the server did', async () => {
    const page = await fetch(`${child.base}/event/${liveEventID}?viewMode=true`)
    expect(page.status).toBe(200)
    // The second anonymous request for the same page is answered by the shared page cache.
    for (let i = 0; i < 2; i++) expect((await fetch(`${child.base}/landing`)).status).toBe(200)

    const res = await scrape(`Bearer ${TOKEN}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await res.text()

    // Request durations under the route pattern, never the raw URL.
    expect(text).toMatch(
      /eventshout_http_request_duration_seconds_count\{route="\/event\/:id",status_class="2xx"\} [1-9]/,
    )
    expect(text).not.toContain(`/event/${liveEventID}`)
    expect(text).not.toContain('viewMode')
    expect(text).toMatch(
      /eventshout_http_request_duration_seconds_count\{route="\/landing",status_class="2xx"\} 2/,
    )
    // The scrape itself is in flight while the text is made.
    expect(sample(text, 'eventshout_http_requests_in_flight')).toBe(1)
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0)
    expect(sample(text, 'eventshout_db_query_duration_seconds_count')).toBeGreaterThan(0)
    expect(sample(text, 'eventshout_db_queue_depth')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'eventshout_page_cache_hits_total')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'eventshout_page_cache_misses_total')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'eventshout_view_counts_unflushed')).toBeGreaterThanOrEqual(0)
    // Read from the database at scrape time: the queued email and the paid ad awaiting review, with their ages.
    expect(sample(text, 'eventshout_metrics_database_up')).toBe(1)
    expect(sample(text, 'eventshout_outbox_pending_messages')).toBe(1)
    expect(sample(text, 'eventshout_outbox_failed_messages')).toBe(0)
    expect(sample(text, 'eventshout_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(HOUR_S)
    expect(sample(text, 'eventshout_outbox_oldest_pending_age_seconds')).toBeLessThan(HOUR_S + 600)
    expect(sample(text, 'eventshout_review_queue_ads')).toBe(1)
    expect(sample(text, 'eventshout_review_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(2 * HOUR_S)
    expect(sample(text, 'eventshout_review_queue_oldest_age_seconds')).toBeLessThan(2 * HOUR_S + 600)
  })

  test('static files and paths no route answers get one fixed label each', async () => {
    const asset = /\/assets\/[^"]+\.(?:css|js)/.exec(await (await fetch(`${child.base}/landing`)).text())?.[0]
    expect(asset).toBeDefined()
    expect((await fetch(`${child.base}${asset}`)).status).toBe(200)
    expect((await fetch(`${child.base}/no-such-page/${crypto.randomUUID()}`)).status).toBe(404)
    const text = await (await scrape(`Bearer ${TOKEN}`)).text()
    expect(text).toMatch(/_count\{route="static",status_class="2xx"\} [1-9]/)
    expect(text).toMatch(/_count\{route="unmatched",status_class="4xx"\} [1-9]/)
    expect(text).not.toContain('no-such-page')
    expect(text).not.toContain(asset!)
  })

  test('a scrape while the database is away still answers, without the database gauges', async () => {
    const testDatabase = getDatabaseHandle()
    useDatabase(undefined)
    try {
      const { body } = await scrapeMetrics()
      expect(sample(body, 'eventshout_metrics_database_up')).toBe(0)
      expect(sample(body, 'eventshout_outbox_pending_messages')).toBeUndefined()
      expect(sample(body, 'eventshout_review_queue_ads')).toBeUndefined()
      expect(body).toContain('eventshout_http_requests_in_flight')
    } finally {
      useDatabase(testDatabase)
    }
    const { body } = await scrapeMetrics()
    expect(sample(body, 'eventshout_metrics_database_up')).toBe(1)
    expect(sample(body, 'eventshout_outbox_pending_messages')).toBe(0)
  })
})

test('database query time counts every query, in transactions and savepoints too (this run’s kind of database)', async () => {
  // The test's own database when it is PostgreSQL; otherwise an embedded one on its thread, as servers run it.
  const own = getDatabaseHandle()
  const embeddedDir = `${dataDir}-queries`
  const handle = own.kind === 'postgres' ? own : await openEmbeddedDatabase(embeddedDir)
  const queries = async () => {
    const text = await registry.getSingleMetricAsString('eventshout_db_query_duration_seconds')
    return sample(text, 'eventshout_db_query_duration_seconds_count') ?? 0
  }
  try {
    const before = await queries()
    await handle.db.execute(sql`SELECT 1`)
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 2`)
      await tx.transaction(async (savepoint) => {
        await savepoint.execute(sql`SELECT 3`)
      })
    })
    expect((await queries()) - before).toBeGreaterThanOrEqual(3)
  } finally {
    if (handle !== own) await handle.close()
    fs.rmSync(embeddedDir, { recursive: true, force: true })
  }
}, 60_000)

describe('request ids', () => {
  test('generated and sent back, and on the request’s log line; a client’s own is ignored without a trusted proxy', async () => {
    const res = await fetch(`${child.base}/landing`, { headers: { 'X-Request-Id': 'client-chosen-id' } })
    const id = res.headers.get('X-Request-Id')!
    expect(id).toMatch(UUID)
    expect((await logLineOf(id)).path).toBe('/landing')
    expect(child.output()).not.toContain('client-chosen-id')
  })

  test('taken from a trusted proxy (TRUST_PROXY) when it is sane', async () => {
    const res = await fetch(`${inProcess}/landing`, {
      headers: { 'X-Request-Id': 'proxy-1234_abcd.efgh:5678' },
    })
    expect(res.headers.get('X-Request-Id')).toBe('proxy-1234_abcd.efgh:5678')
  })

  test('replaced when it is too long or holds anything but letters, digits and - _ . : / + =', async () => {
    for (const hostile of [
      'a'.repeat(129),
      'abc\tdef',
      'id with spaces',
      '"},{"level":60',
      '<script>',
      'jane@example.com',
    ]) {
      const res = await fetch(`${inProcess}/landing`, { headers: { 'X-Request-Id': hostile } })
      expect(res.headers.get('X-Request-Id'), hostile).toMatch(UUID)
    }
  })
})

describe('log lines', () => {
  test('a request line: route pattern, method, path without its query, status, duration; no personal data', async () => {
    const email = `jane.doe.${crypto.randomBytes(4).toString('hex')}@example.com`
    const cookie = `secret-cookie-${crypto.randomBytes(8).toString('hex')}`
    const res = await fetch(`${child.base}/patient-diseases?search=Jane+Doe`, {
      redirect: 'manual',
      headers: {
        Cookie: `__session=${cookie}`,
        From: email,
        'X-Contact': email,
        'X-Forwarded-For': '203.0.113.7',
        Authorization: `Bearer ${TOKEN}`,
      },
    })
    const line = await logLineOf(res.headers.get('X-Request-Id')!)
    expect(line).toMatchObject({
      route: '/patient-diseases',
      method: 'GET',
      path: '/patient-diseases',
      status: res.status,
      msg: 'request',
    })
    expect(line.durationMs).toBeTypeOf('number')
    const text = JSON.stringify(line)
    for (const secret of ['Jane', 'search', email, cookie, TOKEN, '203.0.113.7', '127.0.0.1']) {
      expect(text, secret).not.toContain(secret)
    }
    for (const secret of ['Jane', email, cookie, TOKEN, '203.0.113.7']) {
      expect(child.output() + child.log(), secret).not.toContain(secret)
    }
  })

  test('an error: one JSON line with its stack and the request id, through console.error (which fails a test that does not expect it)', async () => {
    await db.execute(sql`ALTER TABLE "categoryList" RENAME TO "categoryList_away"`)
    expectConsoleError()
    try {
      const res = await fetch(`${inProcess}/api/categories`)
      expect(res.status).toBe(500)
      const requestId = res.headers.get('X-Request-Id')!
      const lines = vi.mocked(console.error).mock.calls.map((call) => String(call[0]))
      expect(lines).toHaveLength(1)
      const line = JSON.parse(lines[0]!) as { level: number; requestId: string; err: { stack: string } }
      expect(line.level).toBe(50)
      expect(line.requestId).toBe(requestId)
      expect(line.err.stack).toMatch(/categoryList[\s\S]*\n\s+at /)
    } finally {
      await db.execute(sql`ALTER TABLE "categoryList_away" RENAME TO "categoryList"`)
    }
  })
})
