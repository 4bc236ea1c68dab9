import { eq, sql } from 'drizzle-orm'
import { db, getDatabaseHandle } from '#db/client.server.ts'
import { jobRuns } from '#db/schema.ts'

export type JobOutcome<T> = { ran: true; result: T } | { ran: false; reason: 'running' | 'recent' }

/** Jobs running in this process, for the embedded database (one process) where there is no advisory lock. */
const runningHere = new Set<string>()

/**
 * The lock of `name` on every server of the database (a PostgreSQL advisory lock; in memory on the embedded database,
 * which has one process): its release, or null when another holds it.
 */
export async function takeJobLock(name: string): Promise<(() => Promise<void>) | null> {
  const handle = getDatabaseHandle()
  if (handle.tryLock) return handle.tryLock(`job:${name}`)
  if (runningHere.has(name)) return null
  runningHere.add(name)
  return async () => void runningHere.delete(name)
}

/** Records a start of `name` unless one was recorded after `cutoff`; true when this call's start is the one. */
async function claimRun(name: string, now: Date, cutoff: Date) {
  const rows = await db
    .insert(jobRuns)
    .values({ name, startedAt: now, runs: 1 })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: { startedAt: now, finishedAt: null, runs: sql`${jobRuns.runs} + 1` },
      setWhere: sql`${jobRuns.startedAt} <= ${cutoff.toISOString()}::timestamptz`,
    })
    .returning({ name: jobRuns.name })
  return rows.length > 0
}

/**
 * Runs `job` unless it is running already (on any server of the database: an advisory lock) or was started less
 * than `notWithinMs` ago (on any server: its row in job_runs). So a job every server schedules runs on one of
 * them, once per period.
 */
export async function runJobOnce<T>(
  name: string,
  { notWithinMs, now = new Date() }: { notWithinMs: number; now?: Date },
  job: () => Promise<T>,
): Promise<JobOutcome<T>> {
  const release = await takeJobLock(name)
  if (!release) return { ran: false, reason: 'running' }
  try {
    if (!(await claimRun(name, now, new Date(now.getTime() - notWithinMs))))
      return { ran: false, reason: 'recent' }
    const result = await job()
    await db.update(jobRuns).set({ finishedAt: new Date() }).where(eq(jobRuns.name, name))
    return { ran: true, result }
  } finally {
    await release()
  }
}

/** The record of a job's runs (how many, the last one's start and end), or null before its first. */
export async function getJobRun(name: string) {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, name)).limit(1)
  return row ?? null
}
