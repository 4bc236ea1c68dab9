import { databaseAway, pingDatabase } from '#app/services/platform/database-health.server.ts'

/**
 * `/healthz` is ready (200) when the database answers, not ready (503) while it is away; `/healthz?db=0` answers
 * without it (the framework's floor in benchmarks).
 */
export async function loader({ request }: { request: Request }) {
  const headers = { 'Cache-Control': 'no-store' }
  if (new URL(request.url).searchParams.get('db') === '0') {
    return Response.json({ status: 'ok' }, { headers })
  }
  // While the database is away a probe is already running: answer at once rather than queue another attempt.
  if (!databaseAway() && (await pingDatabase())) {
    return Response.json({ status: 'ok', database: 'ok' }, { headers })
  }
  return Response.json({ status: 'error', database: 'unreachable' }, { status: 503, headers })
}
