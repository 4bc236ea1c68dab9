import { Gauge } from 'prom-client'
import { isBotVisitor, REPEAT_WINDOW_MINUTES } from '#app/models/analytics/click.server.ts'
import {
  addDailySlotViews,
  addDailyViews,
  type ViewIncrement,
} from '#app/models/analytics/daily-stats.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { logError } from '../platform/logger.server.ts'
import { registers } from '../platform/metrics.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

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
/** Visitors remembered for the repeat rule; past this many, those counted longest ago are forgotten first. */
const MAX_REMEMBERED_VISITORS = 50_000
/** Past this many ads in one visitor's memory, the ones outside the window are dropped. */
const MAX_ADS_PER_VISITOR = 500
/** Counts kept while the database refuses a batch; past this many ad-days, new ones are dropped. */
const MAX_PENDING = 100_000
/** User agents whose bot verdict is remembered (the same few browsers ask most pages). */
const MAX_REMEMBERED_AGENTS = 2_000

export interface Viewer {
  /** The client's address as the server vouches for it (none: repeats cannot be recognised). */
  ip?: string | null
  userAgent?: string | null
}

/** When a visitor was last counted, and when each ad was last counted for them. */
interface VisitorViews {
  key: string
  lastCounted: number
  /** Pairs of ad id and when it was counted, flat: [id, at, id, at, …] (a page lists up to a few dozen ads). */
  ads: number[]
}

/*
 * The counter runs on every public page, so its memory is shaped for that: views per day per ad id (numbers, no
 * string keys per ad), one entry per visitor holding the ads counted for them, and bot verdicts per user agent.
 */
export class ViewCounter {
  /** `write` adds a batch to the daily figures: views, or appearances in a Sponsored slot. */
  constructor(private readonly write: (batch: ViewIncrement[]) => Promise<void> = addDailyViews) {}

  /** Views per day, per ad, since the last batch. */
  private pending = new Map<string, Map<number, number>>()
  private pendingSize = 0
  /** Visitors in the order they were last counted, oldest first. */
  private visitors = new Map<string, VisitorViews>()
  private newest: VisitorViews | undefined
  private botAgents = new Map<string, boolean>()
  private day = { value: '', until: 0 }
  private writing: Promise<void> = Promise.resolve()

  /** Counts one view of each ad in `eventIDs` by `viewer`, unless it is a bot or a repeat. */
  count(eventIDs: readonly number[], viewer: Viewer, now = Date.now()) {
    if (eventIDs.length === 0 || getEnv().VIEW_COUNTING === 'off' || this.isBot(viewer.userAgent)) return
    // Kept in this server's memory only (for the repeat window), so the address itself is the key.
    const visitor = viewer.ip ? this.visitor(viewer.ip, now) : null
    const day = this.dayViews(this.today(now))
    let counted = false
    for (const eventID of eventIDs) {
      if (visitor && !countOnce(visitor.ads, eventID, now)) continue
      counted = true
      const views = day.get(eventID)
      if (views !== undefined) day.set(eventID, views + 1)
      else if (this.pendingSize < MAX_PENDING) {
        day.set(eventID, 1)
        this.pendingSize++
      }
    }
    if (visitor && counted) this.touch(visitor, now)
  }

  /** Views counted and not yet written. */
  pendingViews(): ViewIncrement[] {
    return [...this.pending].flatMap(([day, ads]) =>
      [...ads].map(([eventID, views]) => ({ eventID, day, views })),
    )
  }

  /** How many views are counted and not yet written (for the metrics). */
  unflushedViews(): number {
    let views = 0
    for (const ads of this.pending.values()) for (const count of ads.values()) views += count
    return views
  }

  /**
   * Writes the views counted so far as increments, one batch at a time. A batch the database refuses is kept for
   * the next one.
   */
  flush(now = Date.now()): Promise<void> {
    this.writing = this.writing.then(async () => {
      const batch = this.pendingViews()
      this.pending = new Map()
      this.pendingSize = 0
      this.forget(now)
      if (batch.length === 0) return
      try {
        await this.write(batch)
      } catch (error) {
        for (const { eventID, day, views } of batch) {
          const ads = this.dayViews(day)
          if (!ads.has(eventID)) this.pendingSize++
          ads.set(eventID, (ads.get(eventID) ?? 0) + views)
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

  private isBot(userAgent: string | null | undefined) {
    const agent = userAgent ?? ''
    let bot = this.botAgents.get(agent)
    if (bot === undefined) {
      if (this.botAgents.size >= MAX_REMEMBERED_AGENTS) this.botAgents.clear()
      bot = isBotVisitor(agent)
      this.botAgents.set(agent, bot)
    }
    return bot
  }

  private visitor(key: string, now: number) {
    let visitor = this.visitors.get(key)
    if (!visitor) {
      visitor = { key, lastCounted: now, ads: [] }
      this.visitors.set(key, visitor)
      this.newest = visitor
    } else if (visitor.ads.length > 2 * MAX_ADS_PER_VISITOR) {
      visitor.ads = visitor.ads.filter((_, i, ads) => now - ads[i - (i % 2) + 1]! < REPEAT_WINDOW_MS)
    }
    return visitor
  }

  /** Moves a visitor to the newest end (a new one is there already), forgetting the oldest when there are too many. */
  private touch(visitor: VisitorViews, now: number) {
    visitor.lastCounted = now
    if (this.newest !== visitor) {
      this.visitors.delete(visitor.key)
      this.visitors.set(visitor.key, visitor)
      this.newest = visitor
    }
    // Forgotten in batches: a delete from the front of a large Map costs more one by one.
    if (this.visitors.size > MAX_REMEMBERED_VISITORS * 1.1) this.forget(now)
  }

  private dayViews(day: string) {
    let ads = this.pending.get(day)
    if (!ads) this.pending.set(day, (ads = new Map()))
    return ads
  }

  /** Drops the visitors whose window has passed (and the oldest, while there are too many). */
  private forget(now: number) {
    for (const [key, visitor] of this.visitors) {
      if (now - visitor.lastCounted < REPEAT_WINDOW_MS && this.visitors.size <= MAX_REMEMBERED_VISITORS) break
      this.visitors.delete(key)
    }
  }

  /** Today in the platform time zone, worked out at most once a second. */
  private today(now: number) {
    if (now >= this.day.until) this.day = { value: platformToday(new Date(now)), until: now + 1000 }
    return this.day.value
  }
}

/** Whether `eventID` may be counted for this visitor now; if so, remembers it as counted. */
function countOnce(ads: number[], eventID: number, now: number) {
  for (let i = 0; i < ads.length; i += 2) {
    if (ads[i] !== eventID) continue
    if (now - ads[i + 1]! < REPEAT_WINDOW_MS) return false
    ads[i + 1] = now
    return true
  }
  ads.push(eventID, now)
  return true
}

/** This server's counter. */
export const viewCounter = new ViewCounter()
/** This server's counter of appearances in a Sponsored slot (counted apart: the ad's analytics show them). */
export const slotViewCounter = new ViewCounter(addDailySlotViews)

new Gauge({
  name: 'eventshout_view_counts_unflushed',
  help: 'Ad views counted in memory and not yet written to the daily figures (lost if the process is killed).',
  registers,
  collect() {
    this.set(viewCounter.unflushedViews() + slotViewCounter.unflushedViews())
  },
})

let timer: ReturnType<typeof setInterval> | undefined

function flushLogged() {
  return Promise.all(
    [viewCounter, slotViewCounter].map((counter) =>
      counter.flush().catch((error: unknown) => logError(error, { msg: 'Writing the view counts failed' })),
    ),
  )
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
export async function stopViewCounting(): Promise<void> {
  if (timer) clearInterval(timer)
  timer = undefined
  await flushLogged()
}
