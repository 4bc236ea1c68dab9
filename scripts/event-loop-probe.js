/**
 * Loaded into the server by a benchmark (`NODE_OPTIONS=--import=<this file>`): measures the event loop's delay with
 * `perf_hooks.monitorEventLoopDelay`. On SIGUSR2 it writes what it saw since the last signal (milliseconds) as JSON
 * to EVENT_LOOP_PROBE_FILE and starts over, so the benchmark can read one figure per load run.
 */
import fs from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { isMainThread } from 'node:worker_threads'

const file = process.env.EVENT_LOOP_PROBE_FILE
// The thread that answers requests; the embedded database's thread loads this file too.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  const ms = (ns) => Math.round(ns / 1e4) / 100
  process.on('SIGUSR2', () => {
    const stats = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    }
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(stats))
    fs.renameSync(`${file}.tmp`, file)
    histogram.reset()
  })
}
