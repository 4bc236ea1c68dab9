/**
 * Two app servers on one PostgreSQL database, behind a small round-robin proxy, as a deployment past one machine
 * runs them: started at the same moment on a new database, both come up migrated; an advertiser uploads and pays
 * through one, an admin approves through the other, and the ad (photo and video, in ranges) is on both servers'
 * calendars within a second; a burst spread over both gets no more past a rate limit than one server would let
 * through; the hourly cleanup runs on one of them. Media are in one bucket on an S3-compatible
 * server; each server has a DATA_DIR of its own, so nothing reaches the other through the disk.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { getJobRun } from '#app/models/platform/job-runs.server.ts'
import { UNPAID_CLEANUP_JOB } from '#app/services/operations/cleanup.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { SIGN_IN_MAX_FAILURES } from '#app/services/platform/rate-limit.server.ts'
import { HASH_QUEUE_LENGTH, HASHES_IN_FLIGHT } from '#app/utils/password.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  getDatabaseHandle,
  MIGRATIONS_FOLDER,
  openServerDatabase,
  useDatabase,
  type DatabaseHandle,
} from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, outbox } from '#db/schema.ts'
import { and, eq, like } from 'drizzle-orm'
import { solidPng } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { mp4Bytes } from '#tests/support/media.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'
import { uniqueEmail } from '#tests/support/server-requests.ts'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import { s3Environment, startS3Server } from '#tests/support/s3-server.ts'
import { startDrainingProxy, type DrainingProxy } from '#tests/support/rolling-deploy.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

/** The servers run their first cleanup this long after they start (cleanup.server.ts). */
const FIRST_CLEANUP_AFTER_MS = 30_000
/**
 * Registrations per address on these servers: under what one server's password hashing lets run and wait at once,
 * so a burst is refused by the limit, not by hashing's 503, however the proxy spreads it.
 */
const REGISTRATION_CAP = 5

let cluster: PrivateCluster
let runDatabase: DatabaseHandle
let database: DatabaseHandle
let a: ServerProcess
let b: ServerProcess
let proxy: DrainingProxy
let proxyBase: string
let s3: Awaited<ReturnType<typeof startS3Server>>
let startedAt: number
const dataDir = path.join(TMP_DIR, `two-servers-${process.pid}`)
const today = todayInZone('America/New_York')
const db = () => database.db

const filesIn = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) : []

beforeAll(async () => {
  await ensureBuild()
  runDatabase = getDatabaseHandle()
  cluster = await startPrivateCluster()
  const admin = postgres(cluster.url, { onnotice: () => {}, max: 1 })
  await admin.unsafe('create database two_servers')
  await admin.end()
  const url = withDatabase(cluster.url, 'two_servers')
  s3 = await startS3Server(path.join(dataDir, 's3'))
  const bucket = await s3Environment(s3.endpoint, 'two-servers')
  const env = (name: string) => ({
    ...process.env,
    ...bucket,
    NODE_ENV: 'production' as const,
    APP_ENV: 'test',
    DATABASE_URL: url,
    DATA_DIR: path.join(dataDir, name),
    TRUST_PROXY: 'loopback',
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: String(REGISTRATION_CAP),
  })
  startedAt = Date.now()
  // Both at the same moment, on a database no migration has touched.
  ;[a, b] = await Promise.all([startServerProcess({ env: env('a') }), startServerProcess({ env: env('b') })])
  database = await openServerDatabase(url, { runMigrations: false })
  useDatabase(database)
  // Round robin over the servers, passing everything through (as a load balancer does).
  proxy = await startDrainingProxy([a.base, b.base])
  proxyBase = proxy.base
}, 360_000)

afterAll(async () => {
  useDatabase(runDatabase)
  await proxy?.close()
  await Promise.all([a, b].filter(Boolean).map((s) => stopServer(s.server as ChildProcess)))
  await database?.close()
  await cluster?.destroy()
  await s3?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

test('two servers started together on a new database both come up, migrated once', async () => {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[]
  }
  const client = postgres(withDatabase(cluster.url, 'two_servers'), { onnotice: () => {}, max: 1 })
  const [row] = await client<
    [{ count: number }]
  >`select count(*)::int as count from drizzle.__drizzle_migrations`
  await client.end()
  expect(row!.count).toBe(journal.entries.length)
  for (const server of [a, b]) expect((await fetch(`${server.base}/healthz`)).status).toBe(200)
})

/** The calendar page of `base` as an anonymous visitor gets it (from the shared page cache when it has it). */
const calendar = (base: string) => fetch(`${base}/calendar`).then((r) => r.text())

/** Uploads a new ad with its photo and video through server `base` and pays for it there with the test card. */
async function uploadAndPay(base: string, advertiser: string, title: string) {
  const form = new FormData()
  form.set(
    'eventData',
    JSON.stringify({
      eventTitle: title,
      eventDescription: 'Boats with lights.',
      eventCategory: ['Community'],
    }),
  )
  form.set('selectedDates', JSON.stringify([addDaysIso(today, 1), addDaysIso(today, 2)]))
  form.set('totalAmount', '29.00')
  form.set('image', new Blob([new Uint8Array(await solidPng(64, 48, '#2266aa'))]), 'lights.png')
  form.set('video', new Blob([new Uint8Array(mp4Bytes('isom', ['isom'], 4096))]), 'lights.mp4')
  // Origin: what the site's own pages send with a signed-in change.
  const saved = await fetch(`${base}/api/approve-event`, {
    method: 'POST',
    headers: { Cookie: advertiser, Origin: base },
    body: form,
  })
  expect(saved.status, await saved.text()).toBe(200)
  const pay = new URLSearchParams({
    intent: 'pay',
    // The total checkout shows, as its card form sends it.
    totalAmount: '29.00',
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/34',
    cvc: '123',
  })
  const paid = await fetch(`${base}/checkout`, {
    method: 'POST',
    headers: { Cookie: advertiser, Origin: base },
    body: pay,
    redirect: 'manual',
  })
  expect(paid.status, await paid.text()).toBe(302)
}

test('an ad paid for on one server and approved on the other is on both calendars within a second', async () => {
  const business = await insertBusiness(db())
  const staff = await insertUser(db(), { roles: ['admin'] })
  const advertiser = await sessionCookieFor({ business })
  const reviewer = await sessionCookieFor({ user: staff })
  const title = `Harbor Lights ${Date.now()}`

  await uploadAndPay(a.base, advertiser, title)
  const [event] = await db().select().from(events).where(eq(events.eventTitle, title))
  expect(event).toMatchObject({ paymentStatus: 'paid', eventStatus: 'pending' })

  // Both servers (and the proxy's turns at each) now hold a calendar without the ad in their page caches.
  for (const base of [a.base, b.base, proxyBase, proxyBase]) expect(await calendar(base)).not.toContain(title)

  const approved = await fetch(`${b.base}/api/admin/review-event`, {
    method: 'POST',
    headers: { Cookie: reviewer, Origin: b.base, 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventID: event!.eventID, action: 'approve' }),
  })
  expect(approved.status, await approved.text()).toBe(200)
  const approvedAt = Date.now()
  const visibleAfter: Record<string, number> = {}
  await Promise.all(
    Object.entries({ a: a.base, b: b.base }).map(async ([name, base]) => {
      await expect.poll(() => calendar(base), { timeout: 1000, interval: 20 }).toContain(title)
      visibleAfter[name] = Date.now() - approvedAt
    }),
  )
  console.info(`Approved on B; visible on A after ${visibleAfter.a} ms, on B after ${visibleAfter.b} ms`)
  for (const base of [proxyBase, proxyBase]) expect(await calendar(base)).toContain(title)

  // The ad's photo and video, in ranges, from either server.
  const [live] = await db().select().from(events).where(eq(events.eventID, event!.eventID))
  expect(await calendar(a.base)).toContain(live!.stillPhotoURL.split('?')[0])
  for (const file of [live!.stillPhotoURL, live!.videoURL])
    for (const base of [a.base, b.base]) {
      const part = await fetch(`${base}${file}`, { headers: { Range: 'bytes=0-9' } })
      expect(part.status, `${base}${file}`).toBe(206)
      expect((await part.arrayBuffer()).byteLength).toBe(10)
    }
  // Neither server wrote a stored file to its own disk: the bucket holds them.
  for (const name of ['a', 'b'])
    expect(
      filesIn(path.join(dataDir, name)).filter((f) => /\.(webp|jpe?g|png|mp4)$/.test(f)),
      name,
    ).toEqual([])
})

test("a trusted business's ad, live at payment on one server, is on both calendars within a second", async () => {
  const business = await insertBusiness(db())
  // Approved ads and no rejection: trusted (TRUSTED_AFTER_APPROVALS, 3 by default).
  for (let n = 0; n < 3; n++) await insertTestEvent(business, { showAdOnDates: [addDaysIso(today, -30)] })
  const advertiser = await sessionCookieFor({ business })
  const title = `Trusted Lanterns ${Date.now()}`
  for (const base of [a.base, b.base]) expect(await calendar(base)).not.toContain(title)

  await uploadAndPay(a.base, advertiser, title)
  const paidAt = Date.now()
  const [event] = await db().select().from(events).where(eq(events.eventTitle, title))
  expect(event).toMatchObject({ paymentStatus: 'paid', eventStatus: 'approved' })
  await Promise.all(
    [a.base, b.base].map((base) =>
      expect.poll(() => calendar(base), { timeout: 1000, interval: 20 }).toContain(title),
    ),
  )
  console.info(`Auto-approved on A; on both calendars after ${Date.now() - paidAt} ms`)
})

/** Thirty requests at once, every other one to each server. */
const acrossServers = (request: (base: string, i: number) => Promise<Response>) =>
  Promise.all(Array.from({ length: 30 }, (_, i) => request(i % 2 ? b.base : a.base, i)))

function statusCounts(answers: Response[]) {
  const counts: Record<number, number> = {}
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

function post(base: string, path: string, ip: string, body: URLSearchParams | object) {
  const form = body instanceof URLSearchParams
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      Origin: base,
      'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'X-Forwarded-For': ip,
    },
    body: form ? body : JSON.stringify(body),
  })
}

test('a burst spread over both servers gets no more through any limit than one server would let', async () => {
  expect(REGISTRATION_CAP).toBeLessThanOrEqual(HASHES_IN_FLIGHT + HASH_QUEUE_LENGTH)
  const { SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR, CONFIRMATIONS_PER_EMAIL_PER_DAY } = getEnv()
  const subscribe = (base: string, i: number, email: string, ip: string) =>
    post(
      base,
      '/subscribe',
      ip,
      new URLSearchParams({ kind: 'search', email, frequency: 'weekly', keyword: `k${i}` }),
    )

  const asked = await acrossServers((base, i) => subscribe(base, i, `two-${i}@burst.example`, '203.0.113.90'))
  expect(statusCounts(asked)).toEqual({
    200: SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR,
    429: 30 - SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR,
  })
  expect(await asked.find((r) => r.status === 429)!.text()).toContain('Too many subscriptions were asked for')

  // One mailbox, its address written two ways, from thirty addresses.
  const mailbox = (i: number) => (i % 2 ? `Mailbox+${i}@Burst.example` : 'mailbox@burst.example')
  const mailed = await acrossServers((base, i) => subscribe(base, i, mailbox(i), `198.51.100.${i + 1}`))
  expect(statusCounts(mailed)).toEqual({ 200: 30 })
  const confirmations = await db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, 'subscription-confirm'), like(outbox.toAddress, 'mailbox%@burst.example')))
  expect(confirmations).toHaveLength(CONFIRMATIONS_PER_EMAIL_PER_DAY)

  const registered = await acrossServers((base) =>
    post(base, '/api/business', '203.0.113.91', registrationFields(uniqueEmail('burst'))),
  )
  expect(statusCounts(registered)).toEqual({ 201: REGISTRATION_CAP, 429: 30 - REGISTRATION_CAP })

  const owner = await insertBusiness(db(), { password: 'correct-horse' })
  const guessed = await acrossServers((base, i) =>
    post(base, '/api/business/login', '203.0.113.92', { email: owner.businessEmail, password: `wrong-${i}` }),
  )
  expect(statusCounts(guessed)).toEqual({ 401: SIGN_IN_MAX_FAILURES, 429: 30 - SIGN_IN_MAX_FAILURES })
})

test('the hourly cleanup runs on one of the two servers', async () => {
  const business = await insertBusiness(db())
  const stale = await insertTestEvent(business, {
    paymentStatus: 'pending',
    eventStatus: 'pending',
    createdDate: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000),
    showAdOnDates: [addDaysIso(today, 3)],
  })
  // Both servers' first runs are due by then; the one that starts second finds the job done.
  const wait = startedAt + FIRST_CLEANUP_AFTER_MS + 3000 - Date.now()
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)))
  await expect
    .poll(async () => Boolean((await getJobRun(UNPAID_CLEANUP_JOB))?.finishedAt), { timeout: 20_000 })
    .toBe(true)
  expect((await getJobRun(UNPAID_CLEANUP_JOB))!.runs).toBe(1)
  expect(await db().select().from(events).where(eq(events.eventID, stale.eventID))).toEqual([])
  for (const server of [a, b]) expect(server.log()).not.toMatch(/failed/i)
}, 60_000)
