/**
 * `npm run backup` and `npm run restore` on real processes: the built server under a write load (registrations,
 * drafts with a photo and a video, edits that replace the video and so delete the old file), a backup taken while it
 * serves, restored into an empty target, and a server started on that: every write acknowledged before the backup
 * began is there, and every media file a restored row points to is served. On the embedded database and on a
 * PostgreSQL database of its own. Also: what is refused (a non-empty target, a damaged archive, a server running),
 * the admin socket's privacy, and the hold on media deletions that keeps a backup's files in place.
 */
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { inArray, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ADMIN_SOCKET_FILE } from '#app/services/operations/admin-socket-path.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { deleteStoredMedia, holdMediaDeletions, mediaStorage } from '#app/services/media/media.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  getDatabaseHandle,
  openEmbeddedDatabase,
  openServerDatabase,
  useDatabase,
  type DatabaseHandle,
} from '#db/client.server.ts'
import { business, eventMedia, events } from '#db/schema.ts'
import { solidPng } from '#tests/support/ad-submission.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import { mp4Bytes, webmBytes } from '#tests/support/media.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

const run = promisify(execFile)
const root = path.join(TMP_DIR, `backup-restore-${process.pid}`)
const today = todayInZone('America/New_York')
const POSTGRES_ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
const SESSION_SECRET = crypto.randomBytes(24).toString('hex')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let testDatabase: DatabaseHandle
beforeAll(async () => {
  testDatabase = getDatabaseHandle()
  await ensureBuild()
  fs.mkdirSync(root, { recursive: true })
}, 360_000)
afterAll(() => {
  useDatabase(testDatabase)
  fs.rmSync(root, { recursive: true, force: true })
})

function environment(target: { dataDir: string; url?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    APP_ENV: 'test',
    SESSION_SECRET,
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.url ?? '',
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000',
  }
}

/** `npm run backup|restore -- …args` as an operator runs it; its exit code and what it printed. */
async function command(name: 'backup' | 'restore', args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, ...args],
      {
        env,
        timeout: 60_000,
      },
    )
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` }
  }
}

interface Ack {
  at: number
  email: string
  eventID?: number
  title?: string
}

/**
 * Advertisers registering and saving drafts with a photo and a video, then replacing the video with one of another
 * format (the old file is deleted), until stopped. Every 2xx is recorded with the moment it arrived.
 */
function writeLoad(base: string, workers = 2) {
  const acks: Ack[] = []
  const owners = new Map<string, string>()
  let stopped = false
  let n = 0
  const dates = JSON.stringify([addDaysIso(today, 2), addDaysIso(today, 3)])
  async function advertiser() {
    const email = `load-${process.pid}-${++n}-${Date.now()}@backup.example`
    const registered = await fetch(`${base}/api/business`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        businessName: `Backup Shop ${n}`,
        businessAddress: '1 Main Street',
        businessCity: 'Springfield',
        businessState: 'IL',
        businessZip: '62701',
        businessPhone: '2175550100',
        businessEmail: email,
        businessPassword: 'secret123',
        verifyPassword: 'secret123',
        businessContact: 'Pat Owner',
      }),
    })
    if (registered.status !== 201)
      throw new Error(`register: ${registered.status} ${await registered.text()}`)
    acks.push({ at: Date.now(), email })
    const signedIn = await fetch(`${base}/api/business/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret123' }),
    })
    if (signedIn.status !== 200) throw new Error(`sign in: ${signedIn.status} ${await signedIn.text()}`)
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!
    owners.set(email, cookie)
    const photo = await solidPng(40, 30, `#${crypto.randomBytes(3).toString('hex')}`)
    while (!stopped) {
      const title = `Backup Fair ${crypto.randomUUID()}`
      const form = new FormData()
      form.set(
        'eventData',
        JSON.stringify({ eventTitle: title, eventDescription: 'Stalls.', eventCategory: ['Community'] }),
      )
      form.set('selectedDates', dates)
      form.set('image', new Blob([new Uint8Array(photo)]), 'fair.png')
      form.set('video', new Blob([new Uint8Array(mp4Bytes('isom', ['isom'], 2048))]), 'fair.mp4')
      const saved = await fetch(`${base}/api/approve-event`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: base },
        body: form,
      })
      if (saved.status !== 200) throw new Error(`draft: ${saved.status} ${await saved.text()}`)
      const { eventID } = (await saved.json()) as { eventID: number }
      acks.push({ at: Date.now(), email, eventID, title })
      const edit = new FormData()
      edit.set('eventID', String(eventID))
      edit.set(
        'eventData',
        JSON.stringify({ eventTitle: title, eventDescription: 'Stalls!', eventCategory: ['Community'] }),
      )
      edit.set('selectedDates', dates)
      edit.set('video', new Blob([new Uint8Array(webmBytes('webm', 2048))]), 'fair.webm')
      const edited = await fetch(`${base}/api/approve-event`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: base },
        body: edit,
      })
      if (edited.status !== 200) throw new Error(`edit: ${edited.status} ${await edited.text()}`)
    }
  }
  let failure: unknown
  const running = Promise.all(
    Array.from({ length: workers }, () =>
      advertiser().catch((error) => {
        failure = error
        stopped = true
      }),
    ),
  )
  return {
    acks,
    /** Resolves once `count` drafts are acknowledged; throws what stopped the load, if it stopped. */
    async waitForDrafts(count: number) {
      while (acks.filter((ack) => ack.eventID).length < count) {
        if (failure) throw failure
        await sleep(50)
      }
    },
    owners,
    stop: async () => {
      stopped = true
      await running
      if (failure) throw failure
    },
  }
}

/** What the restored database holds of the acknowledged writes, and the media its rows point to with their owners. */
async function restoredState(handle: DatabaseHandle, acks: Ack[]) {
  const db = handle.db
  const emails = new Set(
    (await db.select({ email: business.businessEmail }).from(business)).map((row) => row.email.toLowerCase()),
  )
  const ids = acks.flatMap((ack) => (ack.eventID ? [ack.eventID] : []))
  const rows = await db
    .select({
      eventID: events.eventID,
      title: events.eventTitle,
      photo: events.stillPhotoURL,
      video: events.videoURL,
      owner: business.businessEmail,
    })
    .from(events)
    .innerJoin(business, sql`${business.businessID} = ${events.businessID}`)
  const attached = ids.length
    ? await db
        .select({ eventID: eventMedia.eventID, url: eventMedia.mediaUrl })
        .from(eventMedia)
        .where(inArray(eventMedia.eventID, ids))
    : []
  const ownerOf = new Map(rows.map((row) => [row.eventID, row.owner.toLowerCase()]))
  const media = [
    ...rows.flatMap((row) =>
      [row.photo, row.video].filter(Boolean).map((url) => ({ url, owner: row.owner.toLowerCase() })),
    ),
    ...attached.map((row) => ({ url: row.url, owner: ownerOf.get(row.eventID)! })),
  ]
  return { emails, events: new Map(rows.map((row) => [row.eventID, row.title])), media }
}

/**
 * The whole operator's round: a server under load, `npm run backup` while it serves, a restore into an empty target,
 * a server on that. Returns what later checks reuse.
 */
async function backupUnderLoadAndRestore(
  source: { dataDir: string; url?: string },
  target: { dataDir: string; url?: string },
) {
  const archive = path.join(root, `${path.basename(source.dataDir)}.tar.gz`)
  let server: ServerProcess | undefined = await startServerProcess({ env: environment(source) })
  const load = writeLoad(server.base)
  try {
    await load.waitForDrafts(4)
    const backupStartedAt = Date.now()
    const made = await command('backup', [archive], environment(source))
    expect(made.out).toContain('by the running server')
    expect(made.code, made.out).toBe(0)
    // The load went on through the backup.
    const duringBackup = load.acks.filter((ack) => ack.at > backupStartedAt).length
    await load.stop()
    expect(duringBackup).toBeGreaterThan(0)
    await stopServer(server.server)
    server = undefined

    const restored = await command('restore', [archive], environment(target))
    expect(restored.code, restored.out).toBe(0)

    const handle = target.url
      ? await openServerDatabase(target.url, { runMigrations: false })
      : await openEmbeddedDatabase(target.dataDir)
    let state
    try {
      state = await restoredState(handle, load.acks)
    } finally {
      await handle.close()
    }
    const before = load.acks.filter((ack) => ack.at < backupStartedAt)
    expect(before.length).toBeGreaterThan(4)
    for (const ack of before) {
      expect(state.emails.has(ack.email.toLowerCase()), ack.email).toBe(true)
      if (ack.eventID) expect(state.events.get(ack.eventID), `event ${ack.eventID}`).toBe(ack.title)
    }
    expect(state.media.length).toBeGreaterThan(8)

    server = await startServerProcess({ env: environment(target) })
    const statuses = await Promise.all(
      state.media.map(async ({ url, owner }) => {
        const answer = await fetch(`${server!.base}${url}`, {
          headers: { Cookie: load.owners.get(owner) ?? '' },
        })
        await answer.arrayBuffer()
        return `${answer.status} ${url}`
      }),
    )
    expect(statuses.filter((status) => !status.startsWith('200 '))).toEqual([])
    return { archive, server }
  } catch (error) {
    await load.stop().catch(() => {})
    if (server) await stopServer(server.server)
    throw error
  }
}

describe('on the embedded database', () => {
  const source = { dataDir: path.join(root, 'embedded-source') }
  const target = { dataDir: path.join(root, 'embedded-target') }

  test('a backup under a write load restores every acknowledged write and every referenced file', async () => {
    const { archive, server } = await backupUnderLoadAndRestore(source, target)
    try {
      // The admin socket: the owner's only, in the data folder, and nothing of it on the HTTP port.
      const socket = path.join(target.dataDir, ADMIN_SOCKET_FILE)
      expect(fs.statSync(socket).isSocket()).toBe(true)
      expect(fs.statSync(socket).mode & 0o777).toBe(0o600)
      expect((await fetch(`${server.base}/backup`, { method: 'POST' })).status).toBe(404)

      // The server prepares the files and the command packs them: the files stay while the command holds the
      // connection, a second backup meanwhile is refused, and they go once it closes.
      const asking = http.request({ socketPath: socket, method: 'POST', path: '/backup' })
      const answer = await new Promise<http.IncomingMessage>((resolve) =>
        asking.end().once('response', resolve),
      )
      const [line] = await once(answer, 'data')
      const prepared = JSON.parse(String(line)) as { folder: string; entries: string[] }
      expect(path.dirname(prepared.folder)).toBe(path.resolve(target.dataDir, 'backup-work'))
      expect(prepared.entries).toEqual(expect.arrayContaining(['manifest.json', 'database']))
      expect(fs.existsSync(path.join(prepared.folder, 'manifest.json'))).toBe(true)
      const second = await command('backup', [path.join(root, 'second.tar.gz')], environment(target))
      expect(second.code).toBe(1)
      expect(second.out).toContain('A backup is already running')
      asking.destroy()
      await expect.poll(() => fs.existsSync(prepared.folder), { timeout: 5000 }).toBe(false)

      // A restore onto a folder a server is using is refused.
      const busy = await command('restore', [archive, '--force'], environment(target))
      expect(busy.code).toBe(1)
      expect(busy.out).toContain('A server is running')
    } finally {
      await stopServer(server.server)
    }
    expect(fs.existsSync(path.join(target.dataDir, ADMIN_SOCKET_FILE))).toBe(false)

    // No lock and no socket travel in the archive.
    const { stdout: listing } = await run('tar', ['tzf', archive])
    expect(listing).not.toMatch(/pg\.lock|admin\.sock/)
    expect(listing.split('\n')[0]).toBe('manifest.json')
  }, 240_000)

  test('with no server running the command makes the backup itself; a non-empty target and a damaged archive are refused', async () => {
    const archive = path.join(root, 'offline.tar.gz')
    const made = await command('backup', [archive], environment(target))
    expect(made.code, made.out).toBe(0)
    expect(made.out).toContain('no server was running')

    const refused = await command('restore', [archive], environment(target))
    expect(refused.code).toBe(1)
    expect(refused.out).toContain('The target is not empty')
    expect(refused.out).toContain('--force')

    const damaged = path.join(root, 'damaged.tar.gz')
    fs.writeFileSync(damaged, fs.readFileSync(archive).subarray(0, 50_000))
    const empty = environment({ dataDir: path.join(root, 'never-restored') })
    const broken = await command('restore', [damaged], empty)
    expect(broken.code).toBe(1)
    expect(broken.out).toMatch(/is not an EventShout backup archive: it is damaged/)
    expect(broken.out).not.toMatch(/\n\s+at /)
    expect(fs.existsSync(path.join(root, 'never-restored', 'pg'))).toBe(false)

    const wrongKind = await command(
      'restore',
      [archive],
      environment({ dataDir: path.join(root, 'x'), url: POSTGRES_ADMIN_URL }),
    )
    expect(wrongKind.code).toBe(1)
    expect(wrongKind.out).toContain('holds the embedded database')

    const forced = await command('restore', [archive, '--force'], environment(target))
    expect(forced.code, forced.out).toBe(0)
    expect(forced.out).toContain('Replaced:')
  }, 150_000)
})

describe('on PostgreSQL', () => {
  const names = { source: `backup_source_${process.pid}`, target: `backup_target_${process.pid}` }
  const admin = () => postgres(POSTGRES_ADMIN_URL, { onnotice: () => {}, max: 1 })

  beforeAll(async () => {
    const sql = admin()
    for (const name of Object.values(names)) {
      await sql.unsafe(`drop database if exists ${name} with (force)`)
      await sql.unsafe(`create database ${name}`)
    }
    await sql.end()
  })
  afterAll(async () => {
    const sql = admin()
    for (const name of Object.values(names)) await sql.unsafe(`drop database if exists ${name} with (force)`)
    await sql.end()
  })

  test('a backup under a write load restores every acknowledged write and every referenced file', async () => {
    const source = {
      dataDir: path.join(root, 'pg-source'),
      url: withDatabase(POSTGRES_ADMIN_URL, names.source),
    }
    const target = {
      dataDir: path.join(root, 'pg-target'),
      url: withDatabase(POSTGRES_ADMIN_URL, names.target),
    }
    const { archive, server } = await backupUnderLoadAndRestore(source, target)
    await stopServer(server.server)
    const refused = await command('restore', [archive], environment(target))
    expect(refused.code).toBe(1)
    expect(refused.out).toContain('in the database at DATABASE_URL')
  }, 240_000)
})

describe('deletions of stored media while a backup runs', () => {
  test('wait until the backup has the files; a key stored again meanwhile is kept', async () => {
    process.env.DATA_DIR = path.join(root, 'hold')
    resetEnvCache()
    const store = mediaStorage()
    const put = (key: string, text: string) =>
      store.put(key, Readable.from([Buffer.from(text)]), 'image/webp')
    await put('images/2026-01/2026-01-05_7.webp', 'old')
    await put('images/2026-01/2026-01-05_8.webp', 'old')
    const release = holdMediaDeletions()
    await deleteStoredMedia(['images/2026-01/2026-01-05_7.webp', 'images/2026-01/2026-01-05_8.webp'])
    expect(await store.head('images/2026-01/2026-01-05_7.webp')).not.toBeNull()
    await sleep(5)
    await put('images/2026-01/2026-01-05_8.webp', 'stored again')
    await release()
    expect(await store.head('images/2026-01/2026-01-05_7.webp')).toBeNull()
    expect(await store.head('images/2026-01/2026-01-05_8.webp')).not.toBeNull()
    // Without a hold, a deletion is at once.
    await deleteStoredMedia(['images/2026-01/2026-01-05_8.webp'])
    expect(await store.head('images/2026-01/2026-01-05_8.webp')).toBeNull()
  })
})
