/**
 * A real HTTP server on loopback standing in for the sites advertisers link to ("Fill from a link"): an event page
 * with schema.org JSON-LD, one with h-event microformats, one with Open Graph tags only, an .ics file, a photo, and
 * the misbehaving ones (redirect chains and loops, a redirect to a private address, a slow server, an over-size page).
 * The app reads it only through LINK_FETCH_ALLOW_HOSTS, which tests set.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { zonedIsoDateTime } from '#app/models/ads/zoned-times.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'

const ZONE = 'America/New_York'

/** The dates the pages' events take place on: the first some days ahead, so they can be booked. */
export function eventPageDates(now = new Date()) {
  const today = todayInZone(ZONE, now)
  return { today, start: addDaysIso(today, 10), second: addDaysIso(today, 11), past: addDaysIso(today, -30) }
}

const compact = (isoDate: string) => isoDate.replaceAll('-', '')

/** The pages' bodies, their links written from `base`. */
export function eventPageBodies(base: string) {
  const { start, second, past } = eventPageDates()
  const jsonLd = {
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'WebPage', name: 'Riverside Arts Center' },
      {
        '@type': 'MusicEvent',
        name: 'Jazz on the River',
        description: '<p>An evening of <b>live jazz</b> &amp; food trucks by the water.</p>',
        startDate: zonedIsoDateTime(start, '19:30', ZONE),
        endDate: zonedIsoDateTime(start, '22:00', ZONE),
        location: {
          '@type': 'Place',
          name: 'Riverside Park',
          address: {
            '@type': 'PostalAddress',
            streetAddress: '200 River Rd',
            addressLocality: 'Springfield',
            addressRegion: 'IL',
            postalCode: '62701',
          },
        },
        offers: { '@type': 'Offer', url: 'https://tickets.example.com/jazz', price: '15' },
        image: [`${base}/photo.png`],
      },
    ],
  }
  return {
    '/json-ld.html': `<!doctype html><html><head><title>Jazz</title>
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head><body><h1>Jazz on the River</h1></body></html>`,
    '/h-event.html': `<!DOCTYPE html><html><head><title>Book sale</title></head><body>
<article class="h-event">
  <h1 class="p-name">Friends of the Library Book Sale</h1>
  <p class="p-summary">Thousands of used books, a dollar each.</p>
  <time class="dt-start" datetime="${start}T09:00">9 AM</time> to
  <time class="dt-end" datetime="${second}T16:00">4 PM the next day</time>
  <div class="p-location h-card"><span class="p-name">Main Library</span>,
    <span class="p-street-address">12 Elm St</span>, <span class="p-locality">Springfield</span>,
    <span class="p-region">IL</span> <span class="p-postal-code">62704</span></div>
  <a class="u-url" href="https://library.example.org/book-sale">Details</a>
  <img class="u-photo" src="/photo.png" alt="Books">
</article></body></html>`,
    '/open-graph.html': `<!doctype html><html><head>
<meta property="og:title" content="Pancake Breakfast">
<meta property="og:description" content="Fire station pancake breakfast &amp; open house.">
<meta property="og:image" content="/photo.png">
<meta property="og:url" content="${base}/open-graph.html">
</head><body>Pancakes</body></html>`,
    '/event.ics': [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Event pages//EN',
      'BEGIN:VEVENT',
      'UID:past@example.org',
      `DTSTAMP:${compact(past)}T000000Z`,
      `DTSTART;TZID=America/Chicago:${compact(past)}T190000`,
      'SUMMARY:Last month’s meeting',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:council@example.org',
      `DTSTAMP:${compact(past)}T000000Z`,
      `DTSTART;TZID=America/Chicago:${compact(start)}T190000`,
      `DTEND;TZID=America/Chicago:${compact(start)}T203000`,
      'SUMMARY:Town Hall: Parks Plan',
      'DESCRIPTION:Come hear the plan for the new parks\\, and say what you think.',
      'LOCATION:City Hall\\, 1 Main St\\, Springfield\\, IL 62701',
      'URL:https://city.example.gov/town-hall',
      `IMAGE;VALUE=URI:${base}/photo.png`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
    '/no-event.html': '<!doctype html><html><head><title>Welcome</title></head><body>Hello</body></html>',
  } as Record<string, string>
}

export interface EventPageServer {
  /** `http://127.0.0.1:<port>` (or the host name given). */
  origin: string
  port: number
  /** The paths asked for, in order. */
  hits: string[]
  close(): Promise<void>
}

/**
 * Starts the stand-in on `host` (127.0.0.1) at `port` (any free one). Links are written with `hostName` (the host
 * itself unless given, e.g. `localhost`), which is what the allow-list names.
 */
export async function startEventPageServer({
  port = 0,
  host = '127.0.0.1',
  hostName = host,
}: { port?: number; host?: string; hostName?: string } = {}): Promise<EventPageServer> {
  const photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer()
  const hits: string[] = []
  const sockets = new Set<import('node:net').Socket>()
  let origin = ''
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    hits.push(path)
    const page = eventPageBodies(origin)[path]
    if (page !== undefined) {
      const type = path.endsWith('.ics') ? 'text/calendar; charset=utf-8' : 'text/html; charset=utf-8'
      response.writeHead(200, { 'Content-Type': type }).end(page)
      return
    }
    const hop = /^\/redirect\/(\d+)$/.exec(path)
    if (hop) {
      const left = Number(hop[1])
      response.writeHead(302, { Location: left > 0 ? `/redirect/${left - 1}` : '/json-ld.html' }).end()
      return
    }
    switch (path) {
      case '/photo.png':
        response.writeHead(200, { 'Content-Type': 'image/png' }).end(photo)
        return
      case '/not-a-photo.png':
        response.writeHead(200, { 'Content-Type': 'image/png' }).end('<html>not a photo</html>')
        return
      case '/loop-a':
        response.writeHead(302, { Location: '/loop-b' }).end()
        return
      case '/loop-b':
        response.writeHead(302, { Location: '/loop-a' }).end()
        return
      case '/to-private':
        response.writeHead(302, { Location: 'http://10.0.0.1/event.html' }).end()
        return
      case '/to-metadata':
        response.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/' }).end()
        return
      case '/to-loopback':
        response.writeHead(307, { Location: 'http://127.0.0.1/event.html' }).end()
        return
      case '/to-file':
        response.writeHead(302, { Location: 'file:///etc/passwd' }).end()
        return
      case '/slow':
        // The head is sent at once, the page never: the deadline covers the whole read.
        response.writeHead(200, { 'Content-Type': 'text/html' })
        response.write('<!doctype html><html>')
        return
      case '/silent':
        return
      case '/huge': {
        response.writeHead(200, { 'Content-Type': 'text/html' })
        const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`
        let sent = 0
        const more = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', more)
          }
          response.end()
        }
        response.write('<!doctype html><html><body>')
        more()
        return
      }
      case '/huge-declared':
        response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(3 * 1024 * 1024) })
        response.end('<!doctype html>')
        return
      case '/binary':
        response.writeHead(200, { 'Content-Type': 'text/html' }).end(Buffer.from([0, 1, 2, 3, 4, 5]))
        return
      case '/gone':
        response.writeHead(404, { 'Content-Type': 'text/html' }).end('<!doctype html>Not here')
        return
      default:
        response.writeHead(404).end()
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const bound = (server.address() as AddressInfo).port
  origin = `http://${hostName}:${bound}`
  return {
    origin,
    port: bound,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
