import { countConfirmedByFrequency } from '#app/models/subscriptions/subscription.server.ts'
import { lastSubscriptionRun } from '#app/models/subscriptions/subscription-runs.server.ts'

import { getEnv } from '../platform/env.server.ts'

const runView = (run: Awaited<ReturnType<typeof lastSubscriptionRun>>) =>
  run && {
    startedAt: run.startedAt.toISOString(),
    /** In the platform time zone, so the page reads the same on the server and in the browser. */
    startedAtText: run.startedAt.toLocaleString('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: getEnv().APP_TIME_ZONE,
    }),
    durationMs: run.durationMs,
    checked: run.checked,
    queued: run.queued,
  }

/** What administrators see at /admin/subscriptions: counts and the last runs, never an address. */
export async function subscriptionReport() {
  const [counts, digests, reminders] = await Promise.all([
    countConfirmedByFrequency(),
    lastSubscriptionRun('digests'),
    lastSubscriptionRun('reminders'),
  ])
  return { counts, lastDigestRun: runView(digests), lastReminderRun: runView(reminders) }
}
