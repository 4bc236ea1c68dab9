import type { LoaderFunctionArgs } from '@remix-run/node'
import { listPendingEvents } from '#app/models/moderation.server.ts'
import { getEnv } from '#app/services/env.server.ts'
import { jsonError } from '#app/services/http.server.ts'
import { requireAdminApi, uploadDateParam } from '#app/services/moderation-http.server.ts'

/** GET /api/admin/pending-events?date=yyyy-mm-dd: paid events awaiting review uploaded that day (platform time zone). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request)
  const date = uploadDateParam(request)
  if (!date) return jsonError('date must be a date in the form yyyy-mm-dd', 400)
  return Response.json(await listPendingEvents(date, { timeZone: getEnv().APP_TIME_ZONE }), {
    headers: { 'Cache-Control': 'no-store' },
  })
}
