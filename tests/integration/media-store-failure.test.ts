/**
 * When the server cannot store an upload (its media folder refuses new files, its disk is full, its bucket does not
 * answer), the advertiser is told so — not that the photo is not an image — and the operator finds a log line with
 * the request id and a count in /metrics. Nothing of the upload is left behind: no scratch file, no ad, no media row.
 *
 * The failures are real ones from the kernel: a folder that refuses new files (its mode for an ordinary user, the
 * immutable attribute for root, whom modes do not stop), and a full disk (a 3 MB tmpfs mounted as the media folder of
 * the built server, in a mount namespace of its own).
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { ensureCategories } from '#app/models/ads/category.server.ts'
import { approvalFailureMessage } from '#app/components/event-form/approval-upload.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as uploadImage } from '#app/routes/api.file-storage.upload-image.ts'
import { action as newEventAction } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction } from '#app/routes/dashboard.events.preview.tsx'
import { loader as metricsLoader } from '#app/routes/metrics.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { PHOTO_TYPE_MESSAGE } from '#app/utils/media-types.ts'
import { db, getDatabaseHandle, openEmbeddedDatabase, useDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { eventMedia, events, type Business } from '#db/schema.ts'
import { approveBody, days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, ensureBuild } from '#tests/support/built-app.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { callRoute } from '#tests/support/routes.ts'
import {
  embeddedServerEnv,
  freePort,
  SERVER_BUILD,
  SERVER_SCRIPT,
  stopServer,
  waitUntilUp,
} from '#tests/support/server-process.ts'
import { S3_TEST_CREDENTIALS } from '#tests/support/s3-server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const STORE_FAILED = 'The server could not store the file. Please try again later.'
const METRICS_TOKEN = 'media-store-failure-metrics-token'
const FAILURES = 'eventshout_media_store_failures_total'

useUploadFolder('media-store-failure')

let owner: Business
let cookie: string
let jpeg: Buffer

/** A real photo: a JPEG of noise, so its bytes do not compress away. */
function noiseJpeg(width: number, height: number, quality = 90) {
  const noise = { type: 'gaussian', mean: 128, sigma: 60 } as const
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } })
    .jpeg({ quality })
    .toBuffer()
}

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Full Disk Diner' })
  cookie = await sessionCookieFor({ business: owner })
  jpeg = await noiseJpeg(800, 600)
  process.env.METRICS_TOKEN = METRICS_TOKEN
  resetEnvCache()
})

const mediaDir = () => path.join(process.env.DATA_DIR!, 'media')
const scratchDir = () => path.join(mediaDir(), 'tmp')

function scratchFiles() {
  return fs.existsSync(scratchDir()) ? fs.readdirSync(scratchDir()) : []
}

async function adCount() {
  return (await db.select({ id: events.eventID }).from(events).where(eq(events.businessID, owner.businessID)))
    .length
}

async function mediaRowCount() {
  const rows = await db
    .select({ id: eventMedia.eventID })
    .from(eventMedia)
    .innerJoin(events, eq(events.eventID, eventMedia.eventID))
    .where(eq(events.businessID, owner.businessID))
  return rows.length
}

/** The samples of the store failures counter in the /metrics text, by cause. */
function failureCounts(metricsText: string) {
  const counts: Record<string, number> = {}
  for (const line of metricsText.split('\n')) {
    const match = new RegExp(`^${FAILURES}\\{cause="([a-z_]+)"\\} (\\d+)$`).exec(line)
    if (match) counts[match[1]!] = Number(match[2])
  }
  return counts
}

async function scrapedFailures() {
  const res = await callRoute(metricsLoader, '/metrics', {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  })
  expect(res.status).toBe(200)
  return failureCounts(await res.text())
}

/** The JSON error lines logged during the test (they go through console.error under the test runner). */
function errorLines() {
  return vi
    .mocked(console.error)
    .mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown> & { level: number })
}

function canCreateIn(folder: string) {
  const probe = path.join(folder, `.probe-${process.pid}`)
  try {
    fs.writeFileSync(probe, '')
  } catch {
    return false
  }
  fs.rmSync(probe, { force: true })
  return true
}

const lockedFolders: Array<{ folder: string; immutable: boolean }> = []

/**
 * Makes `folder` refuse new files: by its mode, or for root (whom modes do not stop) by the immutable attribute.
 * The refusal is the kernel's own (EACCES, or EPERM), which is what a read-only media folder gives the server.
 */
function lockFolder(folder: string) {
  fs.mkdirSync(folder, { recursive: true })
  fs.chmodSync(folder, 0o555)
  const entry = { folder, immutable: false }
  lockedFolders.push(entry)
  if (!canCreateIn(folder)) return
  execFileSync('chattr', ['+i', folder])
  entry.immutable = true
  if (canCreateIn(folder)) throw new Error(`${folder} still takes new files after chmod and chattr +i`)
}

function unlockFolders() {
  for (const { folder, immutable } of lockedFolders.splice(0).reverse()) {
    if (immutable) execFileSync('chattr', ['-i', folder])
    fs.chmodSync(folder, 0o755)
  }
}

afterEach(unlockFolders)

function postApproval(body: FormData, requestId: string) {
  return callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body,
    headers: { Cookie: cookie, 'X-Request-Id': requestId },
  })
}

const photo = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' })

describe('a media folder that refuses new files', () => {
  beforeEach(() => fs.mkdirSync(scratchDir(), { recursive: true }))

  test('the ad with its JPEG: 507 with the storage message, logged with the request id, counted, nothing left', async () => {
    lockFolder(scratchDir())
    lockFolder(mediaDir())
    const before = { ads: await adCount(), failures: await scrapedFailures() }
    expectConsoleError()

    const res = await postApproval(approveBody({ image: photo(jpeg) }), 'req-read-only-folder')

    expect(res.status).toBe(507)
    const json = (await res.json()) as { message: string; code: string }
    expect(json).toMatchObject({ message: STORE_FAILED, code: 'media_store_failed' })
    // What the scripted form's toast says of this answer.
    expect(approvalFailureMessage({ status: res.status, json })).toBe(STORE_FAILED)
    const lines = errorLines()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 50,
      requestId: 'req-read-only-folder',
      storeFailure: 'read_only',
    })
    expect(JSON.stringify(lines[0])).not.toContain(owner.businessEmail)
    expect((await scrapedFailures()).read_only).toBe((before.failures.read_only ?? 0) + 1)
    expect(scratchFiles()).toEqual([])
    expect(await adCount()).toBe(before.ads)
  })

  test('the folder of stored photos refuses (the upload itself is fine): 507 at the save, no ad, no media row, no staged file', async () => {
    lockFolder(path.join(mediaDir(), 'images'))
    const before = { ads: await adCount(), media: await mediaRowCount(), failures: await scrapedFailures() }
    expectConsoleError()

    const res = await postApproval(approveBody({ image: photo(jpeg) }), 'req-images-folder')

    expect(res.status).toBe(507)
    expect(((await res.json()) as { message: string }).message).toBe(STORE_FAILED)
    expect(errorLines()).toEqual([expect.objectContaining({ level: 50, requestId: 'req-images-folder' })])
    expect((await scrapedFailures()).read_only).toBe((before.failures.read_only ?? 0) + 1)
    expect(scratchFiles()).toEqual([])
    expect(await adCount()).toBe(before.ads)
    expect(await mediaRowCount()).toBe(before.media)
  })

  const postPlainForm = (requestId: string) =>
    callRoute(newEventAction, '/dashboard/events/new', {
      method: 'POST',
      body: plainEventForm(
        {
          eventTitle: 'Quiz Night',
          eventDescription: 'Teams of four, prizes for the top three.',
          eventCategory: ['Nightlife'],
          showAdDates: days(2),
          eventDate: '',
        },
        [['image', photo(jpeg), 'quiz.jpg']],
      ),
      headers: { Cookie: cookie, 'X-Request-Id': requestId },
    })

  test('the form posted without JavaScript: 507, the message at the photo', async () => {
    lockFolder(scratchDir())
    expectConsoleError()

    const res = await postPlainForm('req-plain-form')

    expect(res.status).toBe(507)
    const { result } = (await res.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> | null }
    }
    expect(result.error).toEqual({ image: [STORE_FAILED] })
    expect(errorLines()).toEqual([expect.objectContaining({ level: 50, requestId: 'req-plain-form' })])
    expect(scratchFiles()).toEqual([])
  })

  test('its preview approved when the folder of stored photos refuses: the message in the toast, logged, no ad; approved again once it takes files', async () => {
    const staged = await postPlainForm('req-plain-preview')
    expect(staged.status).toBe(302)
    lockFolder(path.join(mediaDir(), 'images'))
    const before = { ads: await adCount(), failures: await scrapedFailures() }
    expectConsoleError()
    const approve = new FormData()
    approve.set('intent', 'approve')

    const res = await callRoute(previewAction, '/dashboard/events/preview', {
      method: 'POST',
      body: approve,
      headers: { Cookie: cookie, 'X-Request-Id': 'req-preview-approve' },
    })

    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard/events/preview')
    expect(await toastOf(res)).toMatchObject({ description: STORE_FAILED, variant: 'destructive' })
    expect(errorLines()).toEqual([
      expect.objectContaining({ level: 50, requestId: 'req-preview-approve', storeFailure: 'read_only' }),
    ])
    expect((await scrapedFailures()).read_only).toBe((before.failures.read_only ?? 0) + 1)
    expect(await adCount()).toBe(before.ads)

    // The draft and its photo wait in the session, so the same approval works once the folder takes files.
    unlockFolders()
    const again = await callRoute(previewAction, '/dashboard/events/preview', {
      method: 'POST',
      body: approve,
      headers: { Cookie: cookie },
    })
    expect(again.headers.get('Location')).toBe('/checkout')
    expect(await adCount()).toBe(before.ads + 1)
    expect(scratchFiles()).toEqual([])
  })

  test('the storage upload call answers in its own shape: 507, { publicUrl: null, error, message }', async () => {
    lockFolder(scratchDir())
    expectConsoleError()
    const body = new FormData()
    body.set('image', photo(jpeg), 'logo.jpg')

    const res = await callRoute(uploadImage, '/api/file-storage/upload-image', {
      method: 'POST',
      body,
      headers: { Cookie: cookie, 'X-Request-Id': 'req-storage-upload' },
    })

    expect(res.status).toBe(507)
    expect(await res.json()).toEqual({
      publicUrl: null,
      error: STORE_FAILED,
      message: STORE_FAILED,
      code: 'media_store_failed',
    })
    expect(errorLines()).toEqual([expect.objectContaining({ requestId: 'req-storage-upload' })])
  })
})

describe('a file that is not an image is still the advertiser’s to fix', () => {
  test.each([
    ['text named .jpg', () => Buffer.from('not a photo at all, just some words '.repeat(200)), 415],
    ['a JPEG cut off after its first bytes', () => jpeg.subarray(0, 6000), 400],
  ])('%s: "Please select an image file", no error logged, nothing counted', async (_, bytes, status) => {
    const before = await scrapedFailures()

    const res = await postApproval(approveBody({ image: photo(bytes()) }), 'req-not-an-image')

    expect(res.status).toBe(status)
    expect(((await res.json()) as { message: string }).message).toBe(PHOTO_TYPE_MESSAGE)
    expect(await scrapedFailures()).toEqual(before)
    expect(scratchFiles()).toEqual([])
  })
})

describe('a bucket that does not answer', () => {
  test('503 with the storage message, logged with the request id, counted as unavailable', async () => {
    const saved = { ...process.env }
    Object.assign(process.env, {
      ...S3_TEST_CREDENTIALS,
      S3_BUCKET: 'media-nobody-listens',
      S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
    })
    resetEnvCache()
    try {
      const before = { ads: await adCount(), failures: await scrapedFailures() }
      expectConsoleError()

      const res = await postApproval(approveBody({ image: photo(jpeg) }), 'req-no-bucket')

      expect(res.status).toBe(503)
      const json = (await res.json()) as { message: string }
      expect(json.message).toBe(STORE_FAILED)
      expect(approvalFailureMessage({ status: res.status, json })).toBe(STORE_FAILED)
      expect(errorLines()).toEqual([
        expect.objectContaining({ level: 50, requestId: 'req-no-bucket', storeFailure: 'unavailable' }),
      ])
      expect((await scrapedFailures()).unavailable).toBe((before.failures.unavailable ?? 0) + 1)
      expect(scratchFiles()).toEqual([])
      expect(await adCount()).toBe(before.ads)
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
      Object.assign(process.env, saved)
      resetEnvCache()
    }
  })
})

/**
 * The built server with a 3 MB tmpfs as its media folder, mounted in a mount namespace of its own (so nothing else on
 * the machine sees it): root mounts it directly, another user in a user namespace of its own. The test reads the
 * folder as the server sees it through /proc/<pid>/root.
 */
async function startServerOnSmallDisk(dataDir: string, env: NodeJS.ProcessEnv) {
  const media = path.join(dataDir, 'media')
  fs.mkdirSync(media, { recursive: true })
  const port = await freePort()
  const namespaces = process.getuid?.() === 0 ? ['--mount'] : ['--user', '--map-root-user', '--mount']
  const server = spawn(
    'unshare',
    [
      ...namespaces,
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      'mount -t tmpfs -o size=3m eventshout-media "$1" && shift && exec "$@"',
      'sh',
      media,
      process.execPath,
      SERVER_SCRIPT,
      SERVER_BUILD,
    ],
    { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const base = `http://127.0.0.1:${port}`
  try {
    await waitUntilUp(`${base}/healthz`, server)
  } catch (error) {
    await stopServer(server)
    throw new Error(`${(error as Error).message}:\n${log}`)
  }
  const seen = `/proc/${server.pid}/root${media}`
  // unshare and sh exec the server in place, so its pid is the one whose mounts these are.
  expect(fs.readFileSync(`/proc/${server.pid}/mountinfo`, 'utf8')).toContain('eventshout-media')
  return { server, base, log: () => log, mediaAsSeen: seen }
}

describe('a full disk (the built server, its media folder a 3 MB tmpfs)', () => {
  const dataDir = path.join(TMP_DIR, `media-store-failure-full-${process.pid}`)
  let child: Awaited<ReturnType<typeof startServerOnSmallDisk>>
  let advertiser: string

  beforeAll(async () => {
    await ensureBuild()
    fs.rmSync(dataDir, { recursive: true, force: true })
    const testDatabase = getDatabaseHandle()
    const embedded = await openEmbeddedDatabase(dataDir)
    useDatabase(embedded)
    try {
      await ensureCategories(DEFAULT_CATEGORIES)
      const business = await insertBusiness(db, { businessName: 'Small Disk Bakery' })
      advertiser = await sessionCookieFor({ business })
    } finally {
      useDatabase(testDatabase)
      await embedded.close()
    }
    child = await startServerOnSmallDisk(
      dataDir,
      embeddedServerEnv(dataDir, { METRICS_TOKEN, TRUST_PROXY: '', LOG_FORMAT: '', LOG_LEVEL: 'info' }),
    )
  }, BUILD_TIMEOUT_MS)

  afterAll(async () => {
    if (child) await stopServer(child.server)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const approve = (image: Buffer) =>
    fetch(`${child.base}/api/approve-event`, {
      method: 'POST',
      headers: { Cookie: advertiser, Origin: child.base },
      body: approveBody({ image: photo(image) }),
    })

  async function childFailures() {
    const res = await fetch(`${child.base}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    })
    return failureCounts(await res.text())
  }

  /** The server's error lines (JSON on stderr) for one request. */
  function childErrorLines(requestId: string) {
    return child
      .log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.requestId === requestId)
  }

  const filesOnTheSmallDisk = () =>
    fs.readdirSync(child.mediaAsSeen, { recursive: true, encoding: 'utf8' }).filter((name) => {
      return fs.statSync(path.join(child.mediaAsSeen, name)).isFile()
    })

  test.each([
    ['its WebP copies do not fit (the upload itself does)', 1600, 1200, [1.5, 3]],
    ['the upload itself does not fit', 2000, 1500, [3.1, 5]],
  ])('a valid JPEG when %s: 507, logged, counted as no_space, the disk left empty', async (_, w, h, mb) => {
    const photoBytes = await noiseJpeg(w, h, 98)
    expect(photoBytes.length / 2 ** 20).toBeGreaterThan(mb[0]!)
    expect(photoBytes.length / 2 ** 20).toBeLessThan(mb[1]!)
    const before = await childFailures()

    const res = await approve(photoBytes)

    expect(res.status).toBe(507)
    expect(await res.json()).toMatchObject({ message: STORE_FAILED, code: 'media_store_failed' })
    const requestId = res.headers.get('X-Request-Id')!
    await expect.poll(() => childErrorLines(requestId).length).toBe(1)
    expect(childErrorLines(requestId)[0]).toMatchObject({ level: 50, storeFailure: 'no_space' })
    expect(JSON.stringify(childErrorLines(requestId)[0])).toMatch(/ENOSPC/)
    expect((await childFailures()).no_space).toBe((before.no_space ?? 0) + 1)
    expect(filesOnTheSmallDisk()).toEqual([])
  })

  test('a photo that fits is saved afterwards: nothing of the refused ones took its room', async () => {
    const res = await approve(await noiseJpeg(400, 300))
    expect(res.status, await res.clone().text()).toBe(200)
    const files = filesOnTheSmallDisk()
    expect(files).toHaveLength(3)
    for (const file of files) expect(file).toMatch(/^images\/\d{4}-\d{2}\/[\w-]+\.webp$/)
  })
})
