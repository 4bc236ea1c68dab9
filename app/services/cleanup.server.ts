/** Removes ads that were saved but never paid for: a day after they were saved, with their media. */
import {
  deleteUnpaidEvent,
  listEventMediaUrls,
  listUnpaidEventsCreatedBefore,
} from '#app/models/payment.server.ts'
import { deleteStoredMedia } from './media.server.ts'
import { settleOpenPayments, UNPAID_EVENT_TTL_MS } from './payments.server.ts'

export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000
/** The first run waits a little, so it does not compete with start-up. */
const FIRST_RUN_DELAY_MS = 30 * 1000

export interface CleanupResult {
  removed: number[]
  /** Old drafts kept: paid meanwhile (recorded now), or their payment could not be checked this time. */
  kept: number[]
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
