/**
 * An ad's QR code as inline SVG, drawn on the server (the same for every visitor), and the live ad its address
 * (event-qr.ts) sends a phone on to.
 */
import { and, eq } from 'drizzle-orm'
import { toString as qrToString } from 'qrcode'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import type { EventAddressSource } from '#app/models/ads/event-address.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/** The codes drawn, by URL: an address never changes what it encodes, so a code is drawn once per ad and origin. */
const drawn = new Map<string, string>()
/** About 1.5 KB a code: every live ad of a large site (10,000) in some 15 MB, so a crawler's walk draws each once. */
const DRAWN_KEPT = 10_000
/** The width the SVG says it is (CSS may draw it larger or smaller: it scales). */
const QR_WIDTH_PX = 128

/**
 * The QR code of `url` as an SVG element (no XML declaration, ready to be put inline): medium error correction, the
 * standard quiet zone of 4 modules, black on white. Drawing one takes about half a millisecond (the mask is chosen
 * for the best scan), so each is kept (the least recently used forgotten past DRAWN_KEPT).
 */
export async function qrCodeSvg(url: string): Promise<string> {
  const kept = drawn.get(url)
  if (kept !== undefined) {
    drawn.delete(url)
    drawn.set(url, kept)
    return kept
  }
  const svg = (
    await qrToString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: QR_WIDTH_PX })
  ).trim()
  drawn.set(url, svg)
  if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!)
  return svg
}

/** The id and title of a live ad (what its page's address is made of), or null when no live ad has this id. */
export async function liveEventAddress(eventID: number, today: string): Promise<EventAddressSource | null> {
  const [row] = await db
    .select({ eventID: events.eventID, eventTitle: events.eventTitle })
    .from(events)
    .where(and(eq(events.eventID, eventID), ...liveEventConditions(today)))
    .limit(1)
  return row ?? null
}
