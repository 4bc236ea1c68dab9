import { hashVisitorIp, isBotVisitor, REPEAT_WINDOW_MINUTES } from '#app/models/click.server.ts'
import { addDailyViews, type ViewIncrement } from '#app/models/analytics.server.ts'
import { getEnv } from './env.server.ts'
import { platformToday } from './platform-today.server.ts'

/**
 * Views of ads (an ad's public page, and each appearance in a /public or /calendar listing) are counted in memory
 * where the page is served — rendered or from the shared page cache — and added to the daily figures in batches:
 * counting must cost a public page next to nothing, and a database write per view would cost far more than the page.
 * Bots and a visitor's repeats within the repeat window are left out, by the same rules as clicks.
 *
 * A batch is written every FLUSH_INTERVAL_MS and when the server stops; a crash loses at most the views counted
 * since the last batch. Each server keeps its own repeat memory, so a visitor whose requests reach two servers
 * within the window may be counted once on each.
 */
export const VIEW_FLUSH_INTERVAL_MS = 5000
const REPEAT_WINDOW_MS = REPEAT_WINDOW_MINUTES * 60 * 1000
/** Visitors remembered for the repeat rule; past this many, the oldest are forgotten first. */
const MAX_REMEMBERED = 200_000
/** Counts kept while the database refuses a batch; past this many ad-days, new ones are dropped. */
const MAX_PENDING = 100_000

export interface Viewer {
  /** The client's address as the server vouches for it (none: repeats cannot be recognised). */
  ip?: string | null
  userAgent?: string | null
}

export class ViewCounter {
  /** Views per `${eventID} ${day}` since the last batch. */
  private pending = new Map<string, number>()
  /** When each `${eventID} ${visitor}` was last counted. */
  private lastSeen = new Map<string, number>()
  private day = { value: '', until: 0 }
  private writing: Promise<void> = Promise.resolve()

  /** Counts one view of each ad in `eventIDs` by `viewer`, unless it is a bot or a repeat. */
  count(eventIDs: readonly number[], viewer: Viewer, now = Date.now()) {
    if (eventIDs.length === 0 || isBotVisitor(viewer.userAgent)) return
    const visitor = viewer.ip ? hashVisitorIp(viewer.ip, getEnv().sessionSecrets[0] ?? '') : ''
    const day = this.today(now)
    for (const eventID of eventIDs) {
      if (visitor) {
        const key = `${eventID} ${visitor}`
        const seen = this.lastSeen.get(key)
        if (seen !== undefined && now - seen < REPEAT_WINDOW_MS) continue
        // Re-inserted so the map stays in order of last view, oldest first.
        this.lastSeen.delete(key)
        this.lastSeen.set(key, now)
      }
      const key = `${eventID} ${day}`
      const views = this.pending.get(key)
      if (views !== undefined) this.pending.set(key, views + 1)
      else if (this.pending.size < MAX_PENDING) this.pending.set(key, 1)
    }
    if (this.lastSeen.size > MAX_REMEMBERED) this.forget(now)
  }

  /** Views counted and not yet written. */
  pendingViews(): ViewIncrement[] {
    return [...this.pending].map(([key, views]) => {
      const [eventID, day] = key.split(' ') as [string, string]
      return { eventID: Number(eventID), day, views }
    })
  }

  /**
   * Writes the views counted so far as increments, one batch at a time. A batch the database refuses is kept for
   * the next one.
   */
  flush(now = Date.now()): Promise<void> {
    this.writing = this.writing.then(async () => {
      const batch = this.pendingViews()
      this.pending = new Map()
      this.forget(now)
      if (batch.length === 0) return
      try {
        await addDailyViews(batch)
      } catch (error) {
        for (const { eventID, day, views } of batch) {
          const key = `${eventID} ${day}`
          this.pending.set(key, (this.pending.get(key) ?? 0) + views)
        }
        throw error
      }
    })
    return this.writing
  }

  /** Resolves when the batch being written (if any) is done. */
  settled(): Promise<void> {
    return this.writing.catch(() => undefined)
  }

  /** Drops the visitors whose window has passed (and the oldest, while there are too many). */
  private forget(now: number) {
    for (const [key, seen] of this.lastSeen) {
      if (now - seen < REPEAT_WINDOW_MS && this.lastSeen.size <= MAX_REMEMBERED) break
      this.lastSeen.delete(key)
    }
  }

  /** Today in the platform time zone, worked out at most once a second. */
  private today(now: number) {
    if (now >= this.day.until) this.day = { value: platformToday(new Date(now)), until: now + 1000 }
    return this.day.value
  }
}

/** This server's counter. */
export const viewCounter = new ViewCounter()

let timer: ReturnType<typeof setInterval> | undefined

function flushLogged() {
  return viewCounter.flush().catch((error) => console.error('Writing the view counts failed', error))
}

/**
 * Writes the counted views every VIEW_FLUSH_INTERVAL_MS (the timer does not keep the process alive). Returns what
 * writes the rest when the server stops.
 */
export function startViewCounting(): () => Promise<void> {
  timer ??= setInterval(() => void flushLogged(), VIEW_FLUSH_INTERVAL_MS)
  timer.unref()
  return stopViewCounting
}

/** Stops the timer and writes what is left: on shutdown, before the database closes. */
export async function stopViewCounting() {
  if (timer) clearInterval(timer)
  timer = undefined
  await flushLogged()
}
