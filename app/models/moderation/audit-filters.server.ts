import { daysInRange } from '#app/models/analytics/analytics-range.ts'
import { AppError, type FieldErrors } from '#app/utils/app-error.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { AUDIT_ACTIONS, type AuditAction } from './moderation-audit.server.ts'

/** The longest range the trail is searched over at once, in days (both ends included). */
export const AUDIT_MAX_DAYS = 366
/** The years a date of the trail's filters may name: every date helper and the database handle them alike. */
const FIRST_YEAR = 2000
const LAST_YEAR = 2100
/** Decisions on one page of /admin/audit, and the last page one may ask for. */
export const AUDIT_PAGE_SIZE = 50
export const AUDIT_LAST_PAGE = 10_000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What the trail is searched by: a range of days in the platform's time zone, a kind of decision, an administrator. */
export interface AuditFilters {
  /** yyyy-mm-dd, both included. */
  from: string
  to: string
  decision: AuditAction | null
  /** The deciding administrator's user id. */
  admin: string | null
}

export interface AuditPageFilters extends AuditFilters {
  /** From 1. */
  page: number
}

const shown = (value: string) => `"${value.slice(0, 20)}"`

function dateProblem(name: string, value: string | null): string | null {
  if (!value) return `${name}: a date (yyyy-mm-dd) is required`
  if (!isValidIsoDate(value)) return `${name}: ${shown(value)} is not a valid date (yyyy-mm-dd)`
  const year = Number(value.slice(0, 4))
  if (year < FIRST_YEAR || year > LAST_YEAR)
    return `${name}: ${shown(value)} is outside the years ${FIRST_YEAR} to ${LAST_YEAR}`
  return null
}

/**
 * The trail's filters from a query string (`from`, `to`, `decision`, `admin`, `page`; an empty one is "any"), with
 * `defaultRange` when neither date is given (none: both are required). An invalid AppError naming each problem at its
 * field (the message is the first one) for a missing, malformed or out-of-range date, a range that ends before it
 * starts or is longer than AUDIT_MAX_DAYS, an unknown decision, an administrator id that is not a UUID, or a page
 * that is not a whole number from 1 to AUDIT_LAST_PAGE.
 */
export function parseAuditFilters(
  query: URLSearchParams,
  defaultRange: { from: string; to: string } | null = null,
): AuditPageFilters {
  const given = (name: string) => query.get(name) || null
  const useDefault = defaultRange !== null && !given('from') && !given('to')
  const from = useDefault ? defaultRange.from : given('from')
  const to = useDefault ? defaultRange.to : given('to')
  const decision = given('decision')
  const admin = given('admin')
  const page = given('page') ?? '1'
  const problems: FieldErrors = {}
  const add = (field: string, problem: string | null) => {
    if (problem) (problems[field] ??= []).push(problem)
  }
  add('from', dateProblem('from', from))
  add('to', dateProblem('to', to))
  if (!problems.from && !problems.to) {
    if (to! < from!) add('to', 'to: the range ends before it starts')
    else if (daysInRange({ from: from!, to: to! }) > AUDIT_MAX_DAYS) add('to', `The range is longer than ${AUDIT_MAX_DAYS} days`)
  }
  if (decision !== null && !(AUDIT_ACTIONS as readonly string[]).includes(decision))
    add('decision', `decision: ${shown(decision)} is not a kind of decision`)
  if (admin !== null && !UUID.test(admin)) add('admin', `admin: ${shown(admin)} is not an administrator’s id`)
  if (!/^\d{1,5}$/.test(page) || Number(page) < 1 || Number(page) > AUDIT_LAST_PAGE)
    add('page', `page: ${shown(page)} is not a page number (1 to ${AUDIT_LAST_PAGE})`)
  const first = Object.values(problems)[0]?.[0]
  if (first) throw new AppError(first, 'invalid', { fieldErrors: problems })
  return { from: from!, to: to!, decision: decision as AuditAction | null, admin, page: Number(page) }
}
