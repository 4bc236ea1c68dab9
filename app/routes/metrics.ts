import { getEnv } from '#app/services/platform/env.server.ts'
import { hasBearerToken, scrapeMetrics } from '#app/services/platform/metrics.server.ts'

/**
 * GET /metrics, for a Prometheus scraper: only with `Authorization: Bearer $METRICS_TOKEN` (401 otherwise), and not
 * there at all (404) when no token is configured.
 */
export async function loader({ request }: { request: Request }) {
  const token = getEnv().METRICS_TOKEN
  const headers = { 'Cache-Control': 'no-store' }
  if (!token)
    return new Response('Not Found', { status: 404, headers: { ...headers, 'Content-Type': 'text/plain' } })
  if (!hasBearerToken(request.headers.get('Authorization'), token)) {
    return new Response('Unauthorized: send the metrics token as `Authorization: Bearer <token>`.', {
      status: 401,
      headers: { ...headers, 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' },
    })
  }
  const { body, contentType } = await scrapeMetrics()
  return new Response(body, { headers: { ...headers, 'Content-Type': contentType } })
}
