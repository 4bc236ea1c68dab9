/**
 * Runs the migrations' background backfills (app/models/platform/backfills.server.ts, docs/decisions/041) once the
 * server answers: each on one server at a time (its job lock), in batches with a pause between them so requests
 * keep the database, until a batch finds nothing left. Every server schedules them; one that finds a backfill
 * running elsewhere looks again later, so it takes over when that server stops before the end.
 */
import { Gauge } from 'prom-client'
import {
  getBackfillState,
  listBackfills,
  remainingRows,
  runBackfillBatch,
  unfinishedBackfills,
  type Backfill,
} from '#app/models/platform/backfills.server.ts'
import { takeJobLock } from '#app/models/platform/job-runs.server.ts'
import { logError, logger } from '../platform/logger.server.ts'
import { registers } from '../platform/metrics.server.ts'

/**
 * Rows a batch fills at most, and at least: between them, the size that takes about BATCH_TARGET_MS, from the
 * previous batch's time. A batch holds its rows' locks, and on the embedded database the only session, that long:
 * 1,000 ads with many indexes take ~250 ms there, a few ms on PostgreSQL.
 */
const MAX_BATCH_ROWS = 1000
const MIN_BATCH_ROWS = 50
const BATCH_TARGET_MS = 50
/** Between two batches: as long as the last one took (at least 20 ms), so a backfill has at most half the database. */
const MIN_PAUSE_MS = 20
/**
 * The first look waits for start-up to be over; then again this often while one is left (running elsewhere), so
 * this server's gauges follow the other's progress and it takes over soon after that server stops. A look is a
 * lock attempt and a count from the last committed key.
 */
const FIRST_LOOK_AFTER_MS = 5000
const LOOK_AGAIN_AFTER_MS = 5000

const labelNames = ['backfill'] as const
const rowsDoneGauge = new Gauge({
  name: 'eventshout_backfill_rows_done',
  help: 'Rows a background backfill has gone through, as this server last saw it.',
  labelNames,
  registers,
})
const rowsRemainingGauge = new Gauge({
  name: 'eventshout_backfill_rows_remaining',
  help: 'Rows a background backfill has still to go through, as this server last saw it (0 when finished).',
  labelNames,
  registers,
})
const runningGauge = new Gauge({
  name: 'eventshout_backfill_running',
  help: '1 while this server runs the backfill (one server of the database at a time), else 0.',
  labelNames,
  registers,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The next batch's size, from the last one's: about BATCH_TARGET_MS of work. */
const nextBatchSize = (rows: number, ms: number) =>
  Math.max(MIN_BATCH_ROWS, Math.min(MAX_BATCH_ROWS, Math.round((rows * BATCH_TARGET_MS) / Math.max(ms, 1))))

/**
 * Runs `backfill` to its end unless another server holds it: its batches here (none when it was already finished)
 * and the longest one's time, or false when it is left to that server (or stopped). Also for
 * `npm run bench:rolling-deploy`.
 */
export async function runToTheEnd(backfill: Backfill, stopped: () => boolean = () => false) {
  const labels = { backfill: backfill.name }
  const release = await takeJobLock(`backfill:${backfill.name}`)
  if (!release) return false
  const startedAt = Date.now()
  let doneHere = 0
  try {
    const before = await getBackfillState(backfill.name)
    // Another server may have finished it between this server's look and its lock: nothing to run or to announce.
    if (before?.finishedAt) {
      rowsDoneGauge.set(labels, before.rowsDone)
      rowsRemainingGauge.set(labels, 0)
      return { batches: 0, longestBatchMs: 0 }
    }
    runningGauge.set(labels, 1)
    let remaining = await remainingRows(backfill, before?.lastKey ?? 0)
    rowsDoneGauge.set(labels, before?.rowsDone ?? 0)
    rowsRemainingGauge.set(labels, remaining)
    logger.info({ backfill: backfill.name, remaining, from: before?.lastKey ?? 0 }, 'Backfill running')
    // Small at first: how long a row takes is known after the first batch.
    let size = MIN_BATCH_ROWS * 2
    let longestBatchMs = 0
    let batches = 0
    while (!stopped()) {
      const batchStart = performance.now()
      const { rows, state } = await runBackfillBatch(backfill, size)
      const batchMs = performance.now() - batchStart
      batches++
      longestBatchMs = Math.max(longestBatchMs, batchMs)
      rowsDoneGauge.set(labels, state.rowsDone)
      if (state.finishedAt) {
        rowsRemainingGauge.set(labels, 0)
        logger.info(
          {
            backfill: backfill.name,
            rows: state.rowsDone,
            rowsHere: doneHere,
            ms: Date.now() - startedAt,
            longestBatchMs: Math.round(longestBatchMs),
          },
          'Backfill finished',
        )
        return { batches, longestBatchMs }
      }
      doneHere += rows
      remaining = Math.max(0, remaining - rows)
      rowsRemainingGauge.set(labels, remaining)
      size = nextBatchSize(rows, batchMs)
      await sleep(Math.max(MIN_PAUSE_MS, batchMs))
    }
    return false
  } finally {
    runningGauge.set(labels, 0)
    await release()
  }
}

/** Sets the gauges of a backfill another server runs (or finished), as the table says. */
async function noteState(backfill: Backfill) {
  const state = await getBackfillState(backfill.name)
  const labels = { backfill: backfill.name }
  runningGauge.set(labels, 0)
  rowsDoneGauge.set(labels, state?.rowsDone ?? 0)
  rowsRemainingGauge.set(labels, state?.finishedAt ? 0 : await remainingRows(backfill, state?.lastKey ?? 0))
}

/**
 * Starts the backfills of the migrations folder; returns the stop the shutdown waits for (the batch under way
 * commits, the rest is left for the next start or another server).
 */
export function startBackfills({
  firstLookAfterMs = FIRST_LOOK_AFTER_MS,
  lookAgainAfterMs = LOOK_AGAIN_AFTER_MS,
} = {}) {
  const backfills = listBackfills()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let pass: Promise<void> = Promise.resolve()

  async function runPass() {
    let left = false
    const unfinished = await unfinishedBackfills(backfills)
    for (const backfill of backfills) {
      if (stopped) return
      if (!unfinished.includes(backfill) || !(await runToTheEnd(backfill, () => stopped))) {
        left ||= unfinished.includes(backfill)
        await noteState(backfill)
      }
    }
    if (left && !stopped) schedule(lookAgainAfterMs)
  }

  function schedule(ms: number) {
    timer = setTimeout(() => {
      pass = runPass().catch((error: unknown) => {
        logError(error, { msg: 'A background backfill failed; it continues from its last batch later' })
        if (!stopped) schedule(lookAgainAfterMs)
      })
    }, ms)
    timer.unref()
  }

  if (backfills.length > 0) schedule(firstLookAfterMs)
  return async () => {
    stopped = true
    clearTimeout(timer)
    await pass
  }
}
