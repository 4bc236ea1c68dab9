/** Visitors' reports of ads: the reasons, and what reports do to an ad. Safe for the browser. */

export const REPORT_REASONS = [
  ['misleading', 'Misleading'],
  ['offensive', 'Offensive'],
  ['spam', 'Spam'],
  ['wrong_date_or_place', 'Wrong date or place'],
  ['other', 'Other'],
] as const

export type ReportReason = (typeof REPORT_REASONS)[number][0]

export const REPORT_REASON_LABELS = Object.fromEntries(REPORT_REASONS) as Record<ReportReason, string>

/** The optional text of a report. */
export const REPORT_DETAILS_MAX = 1000

/** An ad hidden from the public pages because enough visitors reported it, until an administrator decides. */
export const HIDDEN_BY_REPORTS = 'reported_hidden'
/** An ad an administrator took down after reports: off the public pages for good. */
export const TAKEN_DOWN = 'taken_down'
