/**
 * The address an ad's QR code encodes: `/event/{id}/qr`, which counts the scan as a source of its own and sends the
 * phone on to the event's page (app/routes/event.$id_.qr.ts). Short, so the code stays small, and the same whatever
 * the title becomes.
 */

export function eventQrPath(eventID: number): string {
  return `/event/${eventID}/qr`
}

/** The same as an absolute URL (what a phone's camera reads). */
export function eventQrUrl(eventID: number, origin: string): string {
  return new URL(eventQrPath(eventID), `${origin}/`).toString()
}

/** The code's text alternative. */
export function eventQrLabel(eventTitle: string): string {
  return `QR code: scan it with a phone to open “${eventTitle}” on its event page`
}
