import {
  administrators,
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditTrailBetween,
  auditTrailOfEvent,
  auditTrailPage,
  type AuditAction,
  type AuditTrailFilter,
} from '#app/models/moderation/moderation-audit.server.ts'
import {
  AUDIT_PAGE_SIZE,
  parseAuditFilters,
  type AuditFilters,
} from '#app/models/moderation/audit-filters.server.ts'
import { zonedDayRange } from '#app/models/moderation/pending-review.server.ts'
import { getEventView } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import type { ModerationAuditEntry } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { toCsv } from '#app/utils/csv.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** One decision as the pages show it. */
export function auditRow(entry: ModerationAuditEntry) {
  return {
    id: entry.id,
    occurredAt: entry.occurredAt.toISOString(),
    who: entry.actorEmail
      ? // Only an advertiser acts without a staff account: on their own ad's schedule status.
        `${entry.actorEmail}${entry.actorUserId ? '' : ' (advertiser)'}`
      : entry.actorUserId
        ? 'a removed account'
        : 'the platform',
    what: `${AUDIT_ACTION_LABELS[entry.action as AuditAction] ?? entry.action}${entry.revision ? ' (edit of a live ad)' : ''}`,
    eventID: entry.eventID,
    businessID: entry.businessID,
    reason: entry.reason,
  }
}

export type AuditRow = ReturnType<typeof auditRow>

/** The ad's admin page: the ad (not found when there is none) and its decisions, newest first. */
export async function adModerationRecord(idParam: string | undefined) {
  const eventID = parseId(idParam ?? '')
  const event = eventID === null ? null : await getEventView(eventID)
  if (!event) throw new AppError('Event not found', 'not_found')
  const trail = await auditTrailOfEvent(event.eventID)
  return { event, trail: trail.map(auditRow) }
}

/** The filters as the trail's query takes them: the days as instants in the platform's time zone. */
const filterOf = ({ from, to, decision, admin }: AuditFilters): AuditTrailFilter => {
  const timeZone = getEnv().APP_TIME_ZONE
  return {
    start: zonedDayRange(from, timeZone).start,
    end: zonedDayRange(to, timeZone).end,
    action: decision,
    actorUserId: admin,
  }
}

/** The query string of the filters (the empty ones, and the first page, left out): the page's and the CSV's links. */
function queryOf({ from, to, decision, admin, page = 1 }: AuditFilters & { page?: number }) {
  const query = new URLSearchParams({ from, to })
  if (decision) query.set('decision', decision)
  if (admin) query.set('admin', admin)
  if (page > 1) query.set('page', String(page))
  return query.toString()
}

/** The CSV download's filters: `from` and `to` required, `decision` and `admin` optional (invalid when malformed). */
export function auditCsvFilters(query: URLSearchParams): AuditFilters {
  return parseAuditFilters(query)
}

/** What the audit page's filters offer: every kind of decision and every administrator. */
export async function auditFilterChoices() {
  return {
    decisions: AUDIT_ACTIONS.map((action) => [action, AUDIT_ACTION_LABELS[action]] as const),
    administrators: await administrators(),
  }
}

/** The filters as the audit page's form shows them ('' for any), from what was sent. */
export function auditFormValues(query: URLSearchParams) {
  return {
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    decision: query.get('decision') ?? '',
    admin: query.get('admin') ?? '',
  }
}

/**
 * /admin/audit: one page of the decisions the query's filters match (the last 30 days when it names no dates), newest
 * first, with the links to the pages before and after it and to the CSV of the same filters. Invalid for bad filters.
 */
export async function auditPage(query: URLSearchParams) {
  const today = platformToday()
  const filters = parseAuditFilters(query, { from: addDaysIso(today, -30), to: today })
  const entries = await auditTrailPage(filterOf(filters), {
    offset: (filters.page - 1) * AUDIT_PAGE_SIZE,
    limit: AUDIT_PAGE_SIZE + 1,
  })
  const { page } = filters
  return {
    filters: {
      from: filters.from,
      to: filters.to,
      decision: filters.decision ?? '',
      admin: filters.admin ?? '',
    },
    rows: entries.slice(0, AUDIT_PAGE_SIZE).map(auditRow),
    page,
    previousHref: page > 1 ? `/admin/audit?${queryOf({ ...filters, page: page - 1 })}` : null,
    nextHref:
      entries.length > AUDIT_PAGE_SIZE ? `/admin/audit?${queryOf({ ...filters, page: page + 1 })}` : null,
    csvHref: `/admin/audit.csv?${queryOf({ ...filters, page: 1 })}`,
  }
}

/** The decisions the filters match, oldest first, as CSV. */
export async function auditCsv(filters: AuditFilters): Promise<string> {
  const entries = await auditTrailBetween(filterOf(filters))
  return toCsv([
    ['occurred_at', 'actor', 'action', 'event_id', 'business_id', 'revision', 'reason'],
    ...entries.map((e) => [
      e.occurredAt.toISOString(),
      e.actorEmail,
      e.action,
      e.eventID,
      e.businessID,
      e.revision ? 'yes' : 'no',
      e.reason,
    ]),
  ])
}
