import { DATABASE_UNAVAILABLE_MESSAGE } from '../platform/database-errors.server.ts'
import { DATABASE_RETRY_AFTER_SECONDS, databaseAway } from '../platform/database-health.server.ts'

function unavailable(response: Response, { keepBody = false } = {}) {
  const headers = new Headers(response.headers)
  headers.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
  headers.set('Cache-Control', 'no-store')
  // A page keeps its error page, a 503 its own message; anything else gets the JSON message of the API.
  if (keepBody || headers.get('Content-Type')?.startsWith('text/html')) {
    return new Response(response.body, { status: 503, statusText: 'Service Unavailable', headers })
  }
  void response.body?.cancel()
  headers.delete('Content-Length')
  headers.set('Content-Type', 'application/json; charset=utf-8')
  return new Response(JSON.stringify({ message: DATABASE_UNAVAILABLE_MESSAGE }), { status: 503, headers })
}

/**
 * Wraps the app's request handler (server.js): while the database is away, a server error is answered as what it
 * is, 503 with Retry-After, and every 503 tells the client when to come back.
 */
export function withDatabaseOutageAnswers<Args extends unknown[]>(
  handler: (request: Request, ...rest: Args) => Promise<Response>,
) {
  return async (request: Request, ...rest: Args): Promise<Response> => {
    const response = await handler(request, ...rest)
    if (response.status === 503 && !response.headers.has('Retry-After'))
      return unavailable(response, { keepBody: true })
    if (response.status >= 500 && response.status !== 503 && databaseAway()) return unavailable(response)
    return response
  }
}
