import {
  AUDIT_ACTION_LABELS,
  auditTrailBetween,
  auditTrailOfEvent,
  type AuditAction,
} from '#app/models/moderation/moderation-audit.server.ts'
import { parseAnalyticsRange, type DateRange } from '#app/models/analytics/analytics-range.ts'
import { zonedDayRange } from '#app/models/moderation/pending-review.server.ts'
import { getEventView } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import type { ModerationAuditEntry } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'

/** One decision as the pages show it. */
export function auditRow(entry: ModerationAuditEntry) {
  return {
    id: entry.id,
    occurredAt: entry.occurredAt.toISOString(),
    who: entry.actorEmail || (entry.actorUserId ? 'a removed account' : 'the platform'),
    what: `${AUDIT_ACTION_LABELS[entry.action as AuditAction] ?? entry.action}${entry.revision ? ' (edit of a live ad)' : ''}`,
    eventID: entry.eventID,
    businessID: entry.businessID,
    reason: entry.reason,
  }
}

export type AuditRow = ReturnType<typeof auditRow>

/** The ad's admin page: the ad (404 when there is none) and its decisions, newest first. */
export async function adModerationRecord(idParam: string | undefined) {
  const eventID = parseId(idParam ?? '')
  const event = eventID === null ? null : await getEventView(eventID)
  if (!event) throw new AppError('Event not found', 'not_found')
  const trail = await auditTrailOfEvent(event.eventID)
  return { event, trail: trail.map(auditRow) }
}

/** The CSV download's range (`from`, `to`, yyyy-mm-dd, both included, in the platform time zone). */
export function auditRange(query: URLSearchParams): DateRange {
  return parseAnalyticsRange(query)
}

// A spreadsheet runs a cell that starts with one of these as a formula: the trail's free text must stay text.
const FORMULA_START = /^[=+\-@\t\r]/

function csvField(value: string | number | null) {
  const raw = value === null ? '' : String(value)
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The decisions taken within the range, oldest first, as CSV. */
export async function auditCsv(range: DateRange): Promise<string> {
  const timeZone = getEnv().APP_TIME_ZONE
  const start = zonedDayRange(range.from, timeZone).start
  const end = zonedDayRange(range.to, timeZone).end
  const entries = await auditTrailBetween(start, end)
  const lines: (string | number | null)[][] = [
    ['occurred_at', 'actor', 'action', 'event_id', 'business_id', 'revision', 'reason'],
  ]
  for (const e of entries) {
    lines.push([
      e.occurredAt.toISOString(),
      e.actorEmail,
      e.action,
      e.eventID,
      e.businessID,
      e.revision ? 'yes' : 'no',
      e.reason,
    ])
  }
  return `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`
}
