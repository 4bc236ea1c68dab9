import type { ActionFunctionArgs } from '@remix-run/node'
import { reviewSchema } from '#app/models/moderation/pending-review.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { requireRoleForJson } from '#app/services/http/json-calls.server.ts'
import { reviewEvent } from '#app/services/moderation/moderation.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { readJsonBody } from '#app/services/http/request-body.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

const REVIEW_MESSAGES = {
  approved: 'Event approved',
  rejected: 'Event rejected',
  changes_requested: 'Changes requested',
} as const

/** A decision on a live ad's pending revision: the ad stays live; only an approved revision changes it. */
const REVISION_MESSAGES = {
  approved: 'Revision approved: the ad shows the new version',
  rejected: 'Revision rejected: the live version stays',
  changes_requested: 'Changes requested on the revision: the live version stays',
} as const

/**
 * POST /api/admin/review-event, JSON {eventID, action: approve|reject|request_changes, reason?} (a reason is required
 * to request changes). On a live ad with a pending revision the decision is on the revision (`revision: true`). Only a JSON body is read: a form
 * another site submits cannot carry that content type without the browser asking first.
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const admin = await requireRoleForJson(request, 'admin')
    const review = await readJsonBody(request, reviewSchema)
    const outcome = await reviewEvent(review, {
      reviewerId: admin.id,
      today: platformToday(),
      origin: linkOrigin(request),
    })
    return Response.json({
      eventID: outcome.eventID,
      eventStatus: outcome.eventStatus,
      message: (outcome.revision ? REVISION_MESSAGES : REVIEW_MESSAGES)[outcome.eventStatus],
      ...(outcome.revision ? { revision: true } : {}),
      ...(outcome.refund ? { refund: outcome.refund } : {}),
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
