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

/** Rows a batch fills: one statement of a few milliseconds, so a row lock is never held long. */
export const BACKFILL_BATCH_ROWS = 1000
/** Between two batches, so the backfill takes a small share of the database. */
const PAUSE_BETWEEN_BATCHES_MS = 20
/** The first look waits for start-up to be over; then again this often while one is left (running elsewhere). */
const FIRST_LOOK_AFTER_MS = 5000
const LOOK_AGAIN_AFTER_MS = 30_000

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

/** Runs `backfill` to its end unless another server holds it; false when it is left to that server (or stopped). */
async function runToTheEnd(backfill: Backfill, stopped: () => boolean) {
  const labels = { backfill: backfill.name }
  const release = await takeJobLock(`backfill:${backfill.name}`)
  if (!release) return false
  const startedAt = Date.now()
  let doneHere = 0
  try {
    runningGauge.set(labels, 1)
    const before = await getBackfillState(backfill.name)
    let remaining = await remainingRows(backfill, before?.lastKey ?? 0)
    rowsDoneGauge.set(labels, before?.rowsDone ?? 0)
    rowsRemainingGauge.set(labels, remaining)
    logger.info({ backfill: backfill.name, remaining, from: before?.lastKey ?? 0 }, 'Backfill running')
    while (!stopped()) {
      const { rows, state } = await runBackfillBatch(backfill, BACKFILL_BATCH_ROWS)
      rowsDoneGauge.set(labels, state.rowsDone)
      if (state.finishedAt) {
        rowsRemainingGauge.set(labels, 0)
        logger.info(
          { backfill: backfill.name, rows: state.rowsDone, rowsHere: doneHere, ms: Date.now() - startedAt },
          'Backfill finished',
        )
        return true
      }
      doneHere += rows
      remaining = Math.max(0, remaining - rows)
      rowsRemainingGauge.set(labels, remaining)
      await sleep(PAUSE_BETWEEN_BATCHES_MS)
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
