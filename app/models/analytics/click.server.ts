import crypto from 'node:crypto'
import { and, sql } from 'drizzle-orm'
import { isbot } from 'isbot'
import { db, rowsOf, type Transaction } from '#db/client.server.ts'
import { clickCount, events } from '#db/schema.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/**
 * A second click (or bounce, view or scan) by the same visitor on the same event within this window is not counted
 * again.
 */
export const REPEAT_WINDOW_MINUTES = 30

/** Visits from crawlers and other bots (by User-Agent) are never counted: clicks, bounces or views. */
export function isBotVisitor(userAgent: string | null | undefined): boolean {
  return isbot(userAgent ?? '')
}

/** A click on a link to the ad, a bounce off its page, or a scan of its QR code (a source of its own). */
export type VisitKind = 'click' | 'bounce' | 'scan'

export type VisitResult =
  /** A row was written. */
  | 'recorded'
  /** Not counted: a bot, or a repeat within the window. */
  | 'ignored'
  /** No live event with this id. */
  | 'not-found'

let cachedKey: { secret: string; key: Buffer } | undefined

/** A key of its own for visitor hashes, derived from the first session secret so nothing new must be configured. */
function visitorKey(secret: string) {
  if (cachedKey?.secret !== secret) {
    const key = Buffer.from(crypto.hkdfSync('sha256', secret, 'eventshout', 'clickCount.userIPaddress', 32))
    cachedKey = { secret, key }
  }
  return cachedKey.key
}

/**
 * The stored form of a visitor's IP address: HMAC-SHA256 under a server key, hex. It tells repeat visits apart
 * without keeping the address, and cannot be reversed by hashing all addresses without the key.
 */
export function hashVisitorIp(ip: string, secret: string): string {
  return crypto.createHmac('sha256', visitorKey(secret)).update(ip).digest('hex')
}

export interface VisitInput {
  eventID: number
  kind: VisitKind
  /** The client's address, or null when the server cannot tell (then repeats cannot be recognised either). */
  ip: string | null
  userAgent: string | null
  /** Today in the platform time zone: the click date, and what "live" is measured against. */
  today: string
  secret: string
  /** A click from a Sponsored slot (`?from=sponsored`): also counted as a slot click. */
  fromSponsoredSlot?: boolean
}

/**
 * Counts a click, a bounce or a scan on a live event. Bots are not counted, nor a repeat from the same visitor
 * for the same event and kind within REPEAT_WINDOW_MINUTES, checked under a lock for that visitor, event and kind.
 */
export async function recordEventVisit({
  eventID,
  kind,
  ip,
  userAgent,
  today,
  secret,
  fromSponsoredSlot = false,
}: VisitInput): Promise<VisitResult> {
  const bot = isBotVisitor(userAgent)
  const visitor = ip ? hashVisitorIp(ip, secret) : ''
  const bounce = kind === 'bounce'
  const scan = kind === 'scan'
  return db.transaction(async (tx) => {
    // The repeat check and the insert are one statement, but concurrent statements do not see each other's rows:
    // a lock per visitor, event and kind makes simultaneous visits take turns (it ends with the transaction).
    if (visitor && !bot) {
      const lockKey = `visit:${eventID}:${kind}:${visitor}`
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`)
    }
    return insertVisit(tx, {
      eventID,
      visitor,
      bot,
      bounce,
      scan,
      today,
      fromSlot: fromSponsoredSlot && kind === 'click',
    })
  })
}

async function insertVisit(
  tx: Transaction,
  {
    eventID,
    visitor,
    bot,
    bounce,
    scan,
    today,
    fromSlot,
  }: {
    eventID: number
    visitor: string
    bot: boolean
    bounce: boolean
    scan: boolean
    today: string
    fromSlot: boolean
  },
): Promise<VisitResult> {
  const result: unknown = await tx.execute(sql`
    WITH live AS (
      SELECT ${events.eventID} AS id, ${events.businessID} AS business FROM ${events}
      WHERE ${events.eventID} = ${eventID} AND ${and(...liveEventConditions(today))}
    ), inserted AS (
      INSERT INTO ${clickCount} ("businessID", "eventID", "userIPaddress", "clickDate", "bounceClick", "fromSponsoredSlot", "qrScan")
      SELECT live.business, live.id, ${visitor}, ${today}::date, ${bounce}, ${fromSlot}, ${scan} FROM live
      WHERE NOT ${bot}
        AND (${visitor} = '' OR NOT EXISTS (
          SELECT 1 FROM ${clickCount} c
          WHERE c."eventID" = live.id AND c."clickDate" >= ${today}::date - 1
            AND c."userIPaddress" = ${visitor} AND c."bounceClick" = ${bounce} AND c."qrScan" = ${scan}
            AND c.created_at > now() - make_interval(mins => ${REPEAT_WINDOW_MINUTES})))
      RETURNING "clickCountid"
    )
    SELECT (SELECT "clickCountid" FROM inserted LIMIT 1) AS inserted, EXISTS (SELECT 1 FROM live) AS live`)
  const row = rowsOf<{ inserted: number | null; live: boolean }>(result)[0]
  if (!row?.live) return 'not-found'
  return row.inserted == null ? 'ignored' : 'recorded'
}
