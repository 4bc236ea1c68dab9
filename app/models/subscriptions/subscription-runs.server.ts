import { desc, eq } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { subscriptionRuns } from '#db/schema.ts'

export interface SubscriptionRun {
  job: 'digests' | 'reminders'
  startedAt: Date
  durationMs: number
  checked: number
  queued: number
}

export async function recordSubscriptionRun(run: SubscriptionRun) {
  await db.insert(subscriptionRuns).values(run)
}

/** The last run of a job, or null before its first. */
export async function lastSubscriptionRun(job: SubscriptionRun['job']) {
  const [row] = await db
    .select()
    .from(subscriptionRuns)
    .where(eq(subscriptionRuns.job, job))
    .orderBy(desc(subscriptionRuns.startedAt))
    .limit(1)
  return row ?? null
}
