import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ServerBuild } from '@remix-run/node'
import { matchRoutes } from '@remix-run/react'
import { logger, withoutEmails } from '../platform/logger.server.ts'
import { requestDuration, requestsInFlight } from '../platform/metrics.server.ts'

/**
 * Every request gets an id (sent back as X-Request-Id, and on its log lines), one log line when its response ends,
 * and a sample in the request-duration histogram under its route pattern.
 */

export const REQUEST_ID_HEADER = 'X-Request-Id'
/** Labels for what no route of the app answers. */
export const STATIC_ROUTE = 'static'
export const UNMATCHED_ROUTE = 'unmatched'

/** An id a proxy may give: letters, digits and - _ . : / + =, up to 128 characters (a UUID, a trace id). */
const SAFE_REQUEST_ID = /^[\w.:/+=-]{1,128}$/

/** The id of a request: the one a trusted proxy sent, when it is sane; otherwise a new one. */
export function requestIdFor(sent: string | string[] | undefined, fromTrustedProxy: boolean) {
  if (fromTrustedProxy && typeof sent === 'string' && SAFE_REQUEST_ID.test(sent)) return sent
  return crypto.randomUUID()
}

type Routes = ServerBuild['routes']
type RouteTree = Parameters<typeof matchRoutes>[0]
interface RouteNode {
  id: string
  path?: string
  index?: boolean
  caseSensitive?: boolean
  children: RouteNode[]
}

/**
 * Names a path by the pattern of the route that answers it (`/event/:id`, never `/event/42`), so the metrics have a
 * bounded set of labels. Single-fetch data requests (`/event/42.data`) are named by their page's route.
 */
export function routePatterns(routes: Routes) {
  const nodes = new Map<string, RouteNode>()
  for (const route of Object.values(routes)) {
    if (!route) continue
    const { id, path, index, caseSensitive } = route
    nodes.set(id, { id, path, index, caseSensitive, children: [] })
  }
  const tree: RouteNode[] = []
  for (const route of Object.values(routes)) {
    if (!route) continue
    const node = nodes.get(route.id)!
    const parent = route.parentId ? nodes.get(route.parentId) : undefined
    ;(parent ? parent.children : tree).push(node)
  }
  const patterns = new Map<string, string>()
  return (pathname: string) => {
    const page =
      pathname === '/_root.data' ? '/' : pathname.endsWith('.data') ? pathname.slice(0, -5) : pathname
    // Broken percent-encoding (refused with a 400 before routing) would have the matcher warn on the console.
    if (page.includes('%') && !decodable(page)) return UNMATCHED_ROUTE
    const matches = matchRoutes(tree as RouteTree, page)
    const last = matches?.at(-1)
    // The catch-all route (routes/$) answers every path no other route does: its 404 page.
    if (!last || last.route.path === '*') return UNMATCHED_ROUTE
    const id = last.route.id ?? ''
    let pattern = patterns.get(id)
    if (pattern === undefined) {
      const segments = matches!.map((match) => match.route.path).filter((path) => path)
      pattern = `/${segments.join('/')}`.replace(/\/{2,}/g, '/')
      patterns.set(id, pattern)
    }
    return pattern
  }
}

function decodable(pathname: string) {
  try {
    decodeURIComponent(pathname)
    return true
  } catch {
    return false
  }
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`

/** Paths are logged up to this length. */
const MAX_LOGGED_PATH = 300

export interface RequestObserverOptions {
  routes: Routes
  /** Whether a path names a file of the client build (assets, the favicon): one label for all of them. */
  isStaticFile(pathname: string): boolean
  /** Whether the request comes from a proxy trusted to name it (TRUST_PROXY). */
  fromTrustedProxy(req: IncomingMessage): boolean
}

/** A middleware, first in the chain: the request's id, its log line and its metrics. */
export function createRequestObserver({ routes, isStaticFile, fromTrustedProxy }: RequestObserverOptions) {
  const routeOf = routePatterns(routes)
  const histograms = new Map<string, ReturnType<typeof requestDuration.labels>>()
  const observe = (route: string, status: number, seconds: number) => {
    const key = `${route} ${status}`
    let histogram = histograms.get(key)
    if (!histogram) {
      histogram = requestDuration.labels(route, statusClass(status))
      histograms.set(key, histogram)
    }
    histogram.observe(seconds)
  }

  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const started = performance.now()
    const requestId = requestIdFor(req.headers['x-request-id'], fromTrustedProxy(req))
    res.setHeader(REQUEST_ID_HEADER, requestId)
    // Taken now: a mounted middleware (the static files) shortens req.url while it runs.
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const pathname = query === -1 ? url : url.slice(0, query)
    requestsInFlight.inc()
    res.once('close', () => {
      requestsInFlight.dec()
      const durationMs = performance.now() - started
      const route = isStaticFile(pathname) ? STATIC_ROUTE : routeOf(pathname)
      const status = res.statusCode
      observe(route, status, durationMs / 1000)
      // The build's files are logged at debug only: a page load asks for a dozen of them.
      const level = status >= 500 ? 'warn' : route === STATIC_ROUTE ? 'debug' : 'info'
      if (!logger.isLevelEnabled(level)) return
      logger[level](
        {
          requestId,
          route,
          method: req.method,
          path: withoutEmails(
            pathname.length > MAX_LOGGED_PATH ? `${pathname.slice(0, MAX_LOGGED_PATH)}…` : pathname,
          ),
          status,
          durationMs: Math.round(durationMs * 10) / 10,
          ...(!res.writableFinished && { aborted: true }),
        },
        'request',
      )
    })
    next()
  }
}
