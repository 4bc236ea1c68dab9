import { sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'

/** `/healthz` checks the database; `/healthz?db=0` answers without it (the framework's floor in benchmarks). */
export async function loader({ request }: { request: Request }) {
  const headers = { 'Cache-Control': 'no-store' }
  if (new URL(request.url).searchParams.get('db') === '0') {
    return Response.json({ status: 'ok' }, { headers })
  }
  try {
    await db.execute(sql`select 1`)
    return Response.json({ status: 'ok', database: 'ok' }, { headers })
  } catch (error) {
    console.error('Health check failed', error)
    return Response.json({ status: 'error', database: 'unreachable' }, { status: 503, headers })
  }
}
