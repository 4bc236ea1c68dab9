/**
 * Removes ads still unpaid a day after they were saved, with their media, expired sessions and sign-in attempts,
 * old emails from the outbox, and ended ads from the keyword search's table: `npm run cleanup`. It waits for no schedule, but does not run while a server is running the same job.
 */
import { deleteEndedAdTexts } from '#app/models/platform/database-maintenance.server.ts'
import { runJobOnce } from '#app/models/platform/job-runs.server.ts'
import {
  cleanupUnpaidEvents,
  ENDED_AD_TEXTS_JOB,
  EXPIRED_ROWS_JOB,
  OUTBOX_PURGE_JOB,
  purgeExpiredSignIns,
  purgeOldMail,
  UNPAID_CLEANUP_JOB,
} from '#app/services/operations/cleanup.server.ts'
import { EnvError, getEnv } from '#app/services/platform/env.server.ts'
import { DatabaseLockedError, openConfiguredDatabase, useDatabase } from '#db/client.server.ts'

async function main() {
  const handle = await openConfiguredDatabase(getEnv())
  useDatabase(handle)
  try {
    const cleanup = await runJobOnce(UNPAID_CLEANUP_JOB, { notWithinMs: 0 }, () => cleanupUnpaidEvents())
    const purge = await runJobOnce(EXPIRED_ROWS_JOB, { notWithinMs: 0 }, () => purgeExpiredSignIns())
    const mail = await runJobOnce(OUTBOX_PURGE_JOB, { notWithinMs: 0 }, () => purgeOldMail())
    const ended = await runJobOnce(ENDED_AD_TEXTS_JOB, { notWithinMs: 0 }, deleteEndedAdTexts)
    if (!cleanup.ran || !purge.ran || !mail.ran || !ended.ran) {
      console.error('A server is running the cleanup right now; try again in a minute.')
      return 1
    }
    const { removed, kept } = cleanup.result
    console.info(
      `Removed ${removed.length} unpaid event(s)${removed.length ? `: ${removed.join(', ')}` : ''}.`,
    )
    if (kept.length)
      console.info(`Kept ${kept.length} old event(s) whose payment went through or could not be checked.`)
    console.info(
      `Purged ${purge.result.sessions} expired session(s) and ${purge.result.signInAttempts} sign-in attempt record(s).`,
    )
    console.info(`Purged ${mail.result.sent} sent and ${mail.result.failed} failed email(s) from the outbox.`)
    console.info(`Removed ${ended.result} ended ad(s) from the keyword search.`)
    return 0
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
}

try {
  process.exitCode = await main()
} catch (error) {
  if (error instanceof DatabaseLockedError || error instanceof EnvError) {
    console.error(error.message)
    process.exitCode = 1
  } else {
    throw error
  }
}
