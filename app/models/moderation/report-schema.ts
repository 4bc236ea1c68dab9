import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, text } from '#app/models/platform/input-rules.ts'
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '#app/models/moderation/report-rules.ts'

const reasons = REPORT_REASONS.map(([value]) => value) as [ReportReason, ...ReportReason[]]

export const REPORT_REASON_REQUIRED = 'Choose why you are reporting this ad.'

/** A visitor's report of an ad (the form on /event/{id}/report). */
export const reportFormSchema = z.object({
  reason: z.enum(reasons, { error: REPORT_REASON_REQUIRED }),
  details: text()
    .trim()
    .max(REPORT_DETAILS_MAX, `Keep the details under ${REPORT_DETAILS_MAX} characters.`)
    .optional(),
})

export const TAKEDOWN_REASON_MAX = 500
export const TAKEDOWN_REASON_REQUIRED = 'A reason is required to take an ad down (the advertiser reads it).'

/**
 * An administrator's decision on an ad: `keep` it (dismiss its reports, or confirm it after auto-approval) or take it
 * down with the reason the advertiser reads.
 */
export function takedownDecisionSchema<Keep extends string>(keep: Keep) {
  return z
    .object({
      intent: z.enum([keep, 'takedown'] as [Keep, 'takedown'], {
        error: `intent must be ${keep} or takedown`,
      }),
      eventID: idSchema,
      reason: text()
        .trim()
        .max(TAKEDOWN_REASON_MAX, `Keep the reason under ${TAKEDOWN_REASON_MAX} characters.`)
        .optional(),
    })
    .superRefine((value, ctx) => {
      if (value.intent === 'takedown' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: TAKEDOWN_REASON_REQUIRED })
    })
}

/** An administrator's decision on an ad's reports (/admin/reports). */
export const reportDecisionSchema = takedownDecisionSchema('dismiss')
