import { indexNowKeyFile } from '#app/services/calendar/index-now.server.ts'

/** GET /indexnow-key.txt: the IndexNow key, which proves the pings come from this site; 404 while IndexNow is off. */
export function loader() {
  const key = indexNowKeyFile()
  if (!key)
    return new Response('Not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  return new Response(key, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
