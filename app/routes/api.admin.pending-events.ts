import type { LoaderFunctionArgs } from '@remix-run/node'
import { getEnv } from '#app/services/platform/env.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { requireRoleForJson } from '#app/services/http/json-calls.server.ts'
import {
  BAD_REVIEW_DATE_MESSAGE,
  pendingReviewList,
  reviewQueueDate,
} from '#app/services/moderation/review-queue.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/**
 * GET /api/admin/pending-events?date=yyyy-mm-dd|all: what /admin lists for that upload day (platform time zone;
 * today when absent) or for every day: the paid ads awaiting review and the pending edits of live ads
 * (`revision: true`, with their `changes`), oldest first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    await requireRoleForJson(request, 'admin')
    const date = reviewQueueDate(new URL(request.url).searchParams.get('date'))
    if (!date) throw new AppError(BAD_REVIEW_DATE_MESSAGE, 'invalid')
    return Response.json(await pendingReviewList(date, { timeZone: getEnv().APP_TIME_ZONE }), {
      headers: { 'Cache-Control': 'no-store' },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
