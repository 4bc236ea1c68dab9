/** Removes ads that were saved but never paid for: a day after they were saved, with their media. */
import {
  deleteUnpaidEvent,
  listEventMediaUrls,
  listOpenPaymentsForEvent,
  listUnpaidEventsCreatedBefore,
} from '#app/models/payment.server.ts'
import { deleteStoredMedia } from './media.server.ts'
import { getPaymentProvider, recordIntentOutcome, UNPAID_EVENT_TTL_MS } from './payments.server.ts'

export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000
/** The first run waits a little, so it does not compete with start-up. */
const FIRST_RUN_DELAY_MS = 30 * 1000

export interface CleanupResult {
  removed: number[]
  /** Old drafts kept: paid meanwhile (recorded now), or their payment could not be checked this time. */
  kept: number[]
}

/**
 * Before a draft goes, its open payment attempts are checked with the provider: one that succeeded (its webhook
 * lost, the browser closed before completion) is recorded as paid and the ad kept; the others are cancelled.
 */
async function settleOpenPayments(eventID: number): Promise<'paid' | 'unpaid' | 'unknown'> {
  const open = (await listOpenPaymentsForEvent(eventID)).filter((p) => p.payment_intent_id)
  if (open.length === 0) return 'unpaid'
  const provider = getPaymentProvider()
  if (!provider) return 'unpaid'
  for (const payment of open) {
    try {
      const intent = await provider.retrieveIntent(payment.payment_intent_id!)
      if (!intent) continue
      if (intent.status === 'succeeded') {
        const outcome = await recordIntentOutcome(intent)
        if (outcome.kind === 'paid') return 'paid'
        return 'unknown'
      }
      if (intent.status === 'processing') return 'unknown'
      if (intent.status !== 'canceled') await provider.cancelIntent(intent.id)
    } catch (error) {
      console.warn(
        `Could not check payment ${payment.payment_intent_id} of event ${eventID}; keeping it for now`,
        error,
      )
      return 'unknown'
    }
  }
  return 'unpaid'
}

export async function cleanupUnpaidEvents(now: Date = new Date()): Promise<CleanupResult> {
  const cutoff = new Date(now.getTime() - UNPAID_EVENT_TTL_MS)
  const result: CleanupResult = { removed: [], kept: [] }
  for (const event of await listUnpaidEventsCreatedBefore(cutoff)) {
    if ((await settleOpenPayments(event.eventID)) !== 'unpaid') {
      result.kept.push(event.eventID)
      continue
    }
    const media = [event.stillPhotoURL, event.videoURL, ...(await listEventMediaUrls(event.eventID))].filter(
      Boolean,
    )
    // The row goes first: if it got paid in the meantime the delete matches nothing and the files stay.
    if (await deleteUnpaidEvent(event.eventID, cutoff)) {
      await deleteStoredMedia(new Set(media))
      result.removed.push(event.eventID)
    } else {
      result.kept.push(event.eventID)
    }
  }
  return result
}

const schedule = ((globalThis as { __eventshoutCleanup?: { timer?: NodeJS.Timeout } }).__eventshoutCleanup ??=
  {})

async function runScheduled() {
  try {
    const { removed } = await cleanupUnpaidEvents()
    if (removed.length) console.info(`Removed ${removed.length} unpaid event(s) older than a day`)
  } catch (error) {
    console.error('Removing unpaid events failed', error)
  }
}

/** Runs the cleanup inside the server: shortly after start, then hourly. Returns a function that stops it. */
export function startCleanupSchedule() {
  if (!schedule.timer) {
    const first = setTimeout(() => void runScheduled(), FIRST_RUN_DELAY_MS)
    first.unref()
    schedule.timer = setInterval(() => void runScheduled(), CLEANUP_INTERVAL_MS)
    schedule.timer.unref()
  }
  return () => {
    if (schedule.timer) clearInterval(schedule.timer)
    schedule.timer = undefined
  }
}
