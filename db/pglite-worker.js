/**
 * The embedded database on a thread of its own (see pglite-thread.server.ts): opens PGlite on `workerData.dataDir`,
 * applies the migrations, then answers the server thread's queries and transactions. Plain JavaScript, so the same
 * file runs under the built server, the development server and the tests.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { clearInterval, setInterval } from 'node:timers'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, types } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { listOnlineSteps, withoutConcurrently } from './online-steps.js'
import { preparedStatements } from './pglite-prepared.js'

const asText = (value) => value
/**
 * The parsers drizzle's PGlite driver asks for on every query (dates, times and intervals stay text). Functions
 * cannot cross threads, so they are applied here.
 */
const DRIZZLE_PARSERS = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
}

/** What a failed query tells the server thread: the message and PostgreSQL's fields (code, detail, constraint…). */
function describeError(error) {
  const described = { name: error?.name ?? 'Error', message: String(error?.message ?? error) }
  for (const [key, value] of Object.entries(error ?? {}))
    if (typeof value === 'string' || typeof value === 'number') described[key] = value
  return described
}

const ROLLBACK = Symbol('rollback')

/** The name of WAL segment number `segment` on `timeline` (8 hex digits), as PostgreSQL's XLogFileName writes it. */
function walFileName(timeline, segment, segmentSize) {
  const perId = 0x1_0000_0000n / segmentSize
  const hex = (n) => n.toString(16).toUpperCase().padStart(8, '0')
  return `${timeline}${hex(segment / perId)}${hex(segment % perId)}`
}

/**
 * The data folder's lock as this process created it (data-folder-lock.server.ts). It is checked before every
 * statement and commit: once it is removed or replaced, another process may be writing the folder, so this one
 * writes nothing more and tells the server, which exits.
 */
const lock = workerData.lock
let lockLost = false
function ensureLockHeld() {
  if (!lock || lockLost) {
    if (lockLost) throw new Error('PGlite is closed: the data folder lock was lost')
    return
  }
  const stat = fs.statSync(lock.path, { throwIfNoEntry: false })
  if (stat && stat.ino === lock.ino && stat.ctimeMs === lock.ctimeMs) return
  lockLost = true
  parentPort.postMessage({ lockLost: true })
  throw new Error('PGlite is closed: the data folder lock was lost')
}

/**
 * What the folder's control file says before PostgreSQL opens it (global/pg_control: the state at byte 16, the last
 * checkpoint's redo pointer at byte 40): whether it was shut down cleanly, and where replaying the WAL would start.
 */
function controlFileState(dataDir) {
  try {
    const control = fs.readFileSync(path.join(dataDir, 'global', 'pg_control'))
    // DBState: 1 shut down, 2 shut down in recovery, 6 in production (a crash, or a process still running)
    const state = control.readInt32LE(16)
    return { cleanShutdown: state === 1 || state === 2, redo: control.readBigUInt64LE(40) }
  } catch {
    return undefined // a new folder
  }
}

/** Milliseconds since `start`, rounded to a tenth. */
const since = (start) => Math.round((performance.now() - start) * 10) / 10

/** How often the WAL written since the last checkpoint is looked at (env EMBEDDED_CHECKPOINT_MS; 0 = never). */
const CHECKPOINT_EVERY_MS = Number(process.env.EMBEDDED_CHECKPOINT_MS ?? 2000)

/**
 * PGlite runs PostgreSQL as one single-user process: there is no checkpointer, and a checkpoint happens only when
 * asked for or at a clean shutdown. Without one the WAL grows for as long as the server runs, and a start after a
 * crash replays all of it (and a shutdown writes all the pages it holds dirty). Every CHECKPOINT_EVERY_MS, when
 * anything was written since the last one, a CHECKPOINT bounds what a crash leaves to replay to the writes of the
 * last seconds. With fsync off (PGlite's default) it only hands the changed pages to the operating system: a few
 * milliseconds, queued like any statement.
 */
function checkpointPolicy(client) {
  let lastLsn
  let running = false
  // Backups in progress: a checkpoint may recycle a WAL segment a backup has yet to copy, so none runs meanwhile.
  let held = 0
  const lsnNow = async () =>
    BigInt((await client.query(`select pg_current_wal_insert_lsn() - '0/0'::pg_lsn as lsn`)).rows[0].lsn)
  async function maybeCheckpoint() {
    if (running || held > 0 || lockLost || client.closed) return
    running = true
    try {
      const lsn = await lsnNow()
      if (lastLsn !== undefined && lsn === lastLsn) return
      ensureLockHeld()
      await client.exec('CHECKPOINT')
      lastLsn = await lsnNow()
    } catch {
      // closing, or the lock is lost (the server stops): nothing to do
    } finally {
      running = false
    }
  }
  const timer = CHECKPOINT_EVERY_MS > 0 ? setInterval(maybeCheckpoint, CHECKPOINT_EVERY_MS) : undefined
  return {
    stop: () => clearInterval(timer),
    hold: () => void held++,
    release: () => void (held = Math.max(0, held - 1)),
  }
}

async function main() {
  const timings = {}
  const before = controlFileState(workerData.dataDir)
  let started = performance.now()
  const client = new PGlite({ dataDir: workerData.dataDir, extensions: { pg_trgm, btree_gin } })
  await client.waitReady
  // Opening includes replaying the WAL written since the last checkpoint when the last process did not shut down.
  timings.openMs = since(started)
  if (before) {
    const [{ lsn }] = (await client.query(`select pg_current_wal_insert_lsn() - '0/0'::pg_lsn as lsn`)).rows
    timings.cleanShutdown = before.cleanShutdown
    // The WAL from the last checkpoint's redo point to now: what recovery replayed (plus its own checkpoint record).
    timings.walReplayedBytes = before.cleanShutdown ? 0 : Number(BigInt(lsn) - before.redo)
  }
  started = performance.now()
  await migrate(drizzle(client), { migrationsFolder: workerData.migrationsFolder })
  // The concurrent steps (online-steps.js), built the ordinary way: one process, nobody else writing meanwhile.
  for (const step of listOnlineSteps(workerData.migrationsFolder))
    await client.exec(withoutConcurrently(step.sql))
  timings.migrationsMs = since(started)

  const checkpoints = checkpointPolicy(client)
  const prepared = preparedStatements(client, { parsers: DRIZZLE_PARSERS })
  /** Open transactions by id: PGlite's own transaction object and how to end it. */
  const transactions = new Map()
  let nextTransaction = 1
  const target = (tx) => (tx ? transactions.get(tx)?.tx : client)

  const operations = {
    async query({ sql, params, rowMode, tx }) {
      ensureLockHeld()
      const on = target(tx)
      if (!on) throw new Error('The transaction has ended')
      return tx
        ? prepared.queryInTransaction(sql, params, { rowMode })
        : prepared.query(sql, params, { rowMode })
    },
    async exec({ sql, tx }) {
      ensureLockHeld()
      const on = target(tx)
      if (!on) throw new Error('The transaction has ended')
      return on.exec(sql, { parsers: DRIZZLE_PARSERS })
    },
    /** Answers once inside a transaction (PGlite queues everything else behind it), with its id. */
    begin() {
      ensureLockHeld()
      const id = nextTransaction++
      const open = {}
      transactions.set(id, open)
      return new Promise((resolveBegin, rejectBegin) => {
        open.done = client
          .transaction(
            (tx) =>
              new Promise((commit, rollback) => {
                Object.assign(open, { tx, commit, rollback })
                resolveBegin(id)
              }),
          )
          .catch((error) => {
            if (error !== ROLLBACK) throw error
          })
          .finally(() => transactions.delete(id))
        open.done.catch(rejectBegin)
      })
    },
    /** Commits (or rolls back) and answers when PGlite has done so; a failed COMMIT is the answer's error. */
    async end({ tx, commit }) {
      const open = transactions.get(tx)
      if (!open?.commit) throw new Error('The transaction has ended')
      if (commit) ensureLockHeld()
      if (commit) open.commit()
      else open.rollback(ROLLBACK)
      await open.done
    },
    /**
     * Starts a hot copy of the data directory (PostgreSQL's own online backup): a checkpoint, and full pages in the
     * WAL from now on, so files copied while queries go on are made whole again by replaying it.
     */
    async backupStart() {
      ensureLockHeld()
      await client.query(`select pg_backup_start('eventshout', true)`)
      checkpoints.hold()
    },
    /** The hot copy has its WAL segments: checkpoints may recycle them again. */
    async backupDone() {
      checkpoints.release()
    },
    /**
     * Ends the hot copy: reads `factsSql`'s row and ends the backup inside one transaction, so no other transaction
     * writes meanwhile and the copy's WAL ends at the moment the facts were read. Ending the backup switches to a new
     * WAL segment, so the segments the copy needs (from the backup's start to the switch) are complete and are never
     * written again: they are hard-linked into `walInto` (instant), and the server thread copies them afterwards,
     * while queries go on. Only a segment still being written (no switch happened) is copied here. Answers the
     * backup_label a restore starts from and the linked segments' names.
     */
    async backupStop({ factsSql, walInto }) {
      ensureLockHeld()
      return client.transaction(async (tx) => {
        const facts = factsSql ? (await tx.query(factsSql)).rows[0] : undefined
        const [stop] = (await tx.query('select labelfile from pg_backup_stop(false)')).rows
        const [{ insert, segmentSize }] = (
          await tx.query(
            `select pg_current_wal_insert_lsn() - '0/0'::pg_lsn as insert,
                    setting::bigint as "segmentSize" from pg_settings where name = 'wal_segment_size'`,
          )
        ).rows
        const first = /\(file ([0-9A-F]{24})\)/.exec(stop.labelfile)?.[1]
        if (!first) throw new Error('The backup label names no WAL file')
        const end = BigInt(insert)
        const size = BigInt(segmentSize)
        const current = end / size
        const inProgress = end % size !== 0n ? walFileName(first.slice(0, 8), current, size) : undefined
        const wal = path.join(workerData.dataDir, 'pg_wal')
        // From the backup's start to the end of the WAL now; not the recycled segments kept ready under later names.
        const complete = walFileName(first.slice(0, 8), current - 1n, size)
        const linked = []
        for (const name of fs
          .readdirSync(wal)
          .filter((name) => /^[0-9A-F]{24}$/.test(name))
          .sort()) {
          if (name < first) continue
          if (name === inProgress) fs.copyFileSync(path.join(wal, name), path.join(walInto, name))
          else if (name <= complete) {
            fs.linkSync(path.join(wal, name), path.join(walInto, name))
            linked.push(name)
          }
        }
        return { facts, label: stop.labelfile, linked }
      })
    },
    /** Ends a hot copy that failed part-way (nothing to answer). */
    async backupAbort() {
      checkpoints.release()
      await client.query('select pg_backup_stop(false)').catch(() => {})
    },
    async close() {
      checkpoints.stop()
      await client.close()
    },
  }

  parentPort.on('message', async ({ id, op, ...args }) => {
    try {
      const result = await operations[op](args)
      parentPort.postMessage({ id, result })
      if (op === 'close') parentPort.close()
    } catch (error) {
      parentPort.postMessage({ id, error: describeError(error) })
    }
  })
  parentPort.postMessage({ ready: true, timings })
}

main().catch((error) => parentPort.postMessage({ failed: describeError(error) }))
