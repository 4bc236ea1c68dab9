import { takedownDecisionSchema } from '#app/models/moderation/report-schema.ts'

/** An administrator's check of an auto-approved ad (/admin/checks): confirm it, or take it down with a reason. */
export const autoApprovalCheckSchema = takedownDecisionSchema('confirm')
