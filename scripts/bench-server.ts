/** What the benchmarks share besides the server process (tests/support/server-process.ts): the set-up. */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { DATABASE_MAINTENANCE_JOB } from '#app/services/operations/cleanup.server.ts'
import type { Database } from '#db/client.server.ts'
import { jobRuns } from '#db/schema.ts'
import { SERVER_BUILD } from '#tests/support/server-process.ts'

/** False (and says how to build) when the app has not been built. */
export function builtAppExists() {
  if (fs.existsSync(SERVER_BUILD)) return true
  console.error(`${SERVER_BUILD} is missing: run \`npx remix vite:build\` first.`)
  return false
}

/**
 * A fresh data folder and the environment a benchmark shares with the server it starts (the embedded database,
 * development rules, a throw-away session secret). It is also set on this process, so the app's modules see it.
 */
export function benchEnvironment(folderPrefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix))
  const env = {
    ...process.env,
    APP_ENV: 'development',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(24).toString('hex'),
    DATABASE_URL: '',
    HOST: '127.0.0.1',
  }
  Object.assign(process.env, env)
  return { dataDir, env }
}

/**
 * VACUUM ANALYZE after a seed (an embedded database has no autovacuum: statistics and the visibility map come from an
 * explicit pass), noted as the hourly round's maintenance run: without the note the server's first round, 30 s after
 * it starts and so while a benchmark measures, vacuums every seeded table again.
 */
export async function vacuumAsMaintenanceRun(db: Database) {
  await db.execute(sql`VACUUM ANALYZE`)
  await db
    .insert(jobRuns)
    .values({ name: DATABASE_MAINTENANCE_JOB, startedAt: new Date(), finishedAt: new Date() })
}

/** A `--name` or `--name=value` option of the command line: '' for the bare flag, undefined when absent. */
export function option(name: string, args = process.argv.slice(2)) {
  const arg = args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  return arg === undefined ? undefined : arg.split('=').slice(1).join('=')
}

/** The PostgreSQL server a benchmark also runs on ('' = none): `--postgres=url`, DATABASE_URL, or `--postgres` alone for the local one. */
export function postgresTarget(args = process.argv.slice(2)) {
  const given = option('postgres', args)
  return (
    given || process.env.DATABASE_URL || (given === '' ? 'postgres://postgres@127.0.0.1:5432/postgres' : '')
  )
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The resident memory of a process, from /proc (Linux). */
export function rssOf(pid: number) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`No VmRSS for process ${pid}`)
  return Number(match[1]) * 1024
}

/** Samples a process's resident memory every 20 ms until `stop()`. */
export function rssSampler(pid: number) {
  const samples: number[] = []
  const timer = setInterval(() => {
    try {
      samples.push(rssOf(pid))
    } catch {
      // the process has exited; the caller notices
    }
  }, 20)
  return { samples, stop: () => clearInterval(timer) }
}
