import { performance as nodePerformance } from 'node:perf_hooks'
import { PassThrough } from 'node:stream'
import type { EntryContext, HandleDocumentRequestFunction } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { CachedMarkupProvider } from '#app/components/cached-markup.tsx'
import { NonceProvider } from '#app/components/nonce.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { startAdminSocket } from '#app/services/operations/admin-socket.server.ts'
import { startCleanupSchedule } from '#app/services/operations/cleanup.server.ts'
import { startBackfills } from '#app/services/operations/backfills.server.ts'
import { seedDemoDataIfEmpty } from '#app/services/operations/demo-seed.server.ts'
import { noteRequestError } from '#app/services/platform/database-health.server.ts'
import { startDatabase, stopBeforeDatabaseCloses } from '#app/services/platform/database.server.ts'
import { startMailWorker } from '#app/services/mail/mail.server.ts'
import { startIndexNow } from '#app/services/calendar/index-now.server.ts'
import { getEnv, productionWarnings } from '#app/services/platform/env.server.ts'
import { logError, logger } from '#app/services/platform/logger.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { createRequestGuard } from '#app/services/http/request-guard.server.ts'
import { applySecurityHeaders, createNonce, securityHeaders } from '#app/services/http/security.server.ts'
import { sessionCookie } from '#app/services/http/session.server.ts'
import {
  slotViewCounter,
  startViewCounting,
  viewCounter,
} from '#app/services/analytics/view-counter.server.ts'
import { countPageViewsWith } from '#app/services/http/page-cache.server.ts'
import { createCachedMarkupRenderer } from '#app/components/cached-markup.server.ts'
import { DatabaseLockedError } from '#db/client.server.ts'

/** Milliseconds since the process started (Node's time origin): when the app's code began to run. */
const appStartedAt = performance.now()
const env = getEnv()
for (const { variable, message } of productionWarnings(env)) logger.warn({ variable }, message)

/** Milliseconds since the process started at which each step of the app's start ended. */
const startupMarks: { databaseOpen?: number; demoData?: number; jobsStarted?: number } = {}
let databaseStartup: Record<string, number | boolean> | undefined
try {
  const database = await startDatabase()
  databaseStartup = database.startup
  startupMarks.databaseOpen = performance.now()
  if (env.SEED_DEMO_DATA === 'true') {
    await seedDemoDataIfEmpty(database.db, env.APP_TIME_ZONE)
    startupMarks.demoData = performance.now()
  }
  stopBeforeDatabaseCloses(startCleanupSchedule())
  stopBeforeDatabaseCloses(startMailWorker())
  stopBeforeDatabaseCloses(startIndexNow())
  stopBeforeDatabaseCloses(startViewCounting())
  countPageViewsWith(
    (eventIDs, viewer) => viewCounter.count(eventIDs, viewer),
    (eventIDs, viewer) => slotViewCounter.count(eventIDs, viewer),
  )
  stopBeforeDatabaseCloses(startAdminSocket())
  // After start-up: a migration's backfill runs in batches while the server answers (decision 041).
  stopBeforeDatabaseCloses(startBackfills())
  startupMarks.jobsStarted = performance.now()
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    logError(error)
    process.exit(1)
  }
  throw error
}

export const streamTimeout = 5000

/**
 * For server.js, once it serves: one log line with where the start-up went, in milliseconds. `server` holds the
 * marks server.js took (ms since the process started): its modules loaded, listening, serving.
 */
export function logStarted(server: { serverModules: number; listening?: number; serving: number }) {
  const round = (ms: number) => Math.round(ms)
  const nodeReady = nodePerformance.nodeTiming.bootstrapComplete
  const databaseOpen = startupMarks.databaseOpen ?? appStartedAt
  const demoData = startupMarks.demoData ?? databaseOpen
  const jobsStarted = startupMarks.jobsStarted ?? demoData
  logger.info(
    {
      phasesMs: {
        node: round(nodeReady),
        serverModules: round(server.serverModules - nodeReady),
        build: round(appStartedAt - server.serverModules),
        database: round(databaseOpen - appStartedAt),
        ...(startupMarks.demoData !== undefined && { demoData: round(demoData - databaseOpen) }),
        jobs: round(jobsStarted - demoData),
        routes: round(server.serving - jobsStarted),
        total: round(server.serving),
      },
      ...(server.listening !== undefined && { listeningAtMs: round(server.listening) }),
      database: databaseStartup,
    },
    'started',
  )
}

/** Event tiles rendered once and reused by every page that lists them (see CachedListItem). */
const renderCachedMarkup = createCachedMarkupRenderer()

/** For server.js: the shared page cache answers before Remix runs, and sees the same moderation decisions. */
export { forgetStoredPages, gzippedBody, keepPage, lookupPage } from '#app/services/http/page-cache.server.ts'
export { BODY_MAX_BYTES, MULTIPART_BODY_MAX_BYTES } from '#app/constants.ts'
export { containsNul, NUL_MESSAGE } from '#app/models/platform/input-rules.ts'
/** For server.js: which proxies may tell the client's address (validated with the rest of the environment). */
export const trustProxy = env.TRUST_PROXY
/** For server.js: how long a shutdown waits for requests in flight, and what it closes once they are done. */
export const shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS
export { stopJobsAndCloseDatabase } from '#app/services/platform/database.server.ts'
/** For server.js: each request's id, log line and metrics, and the log its errors go to. */
export { createRequestObserver, REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
export { logError } from '#app/services/platform/logger.server.ts'
/** For server.js: the security headers on every answer and no state changes from other sites, before anything else. */
export const requestGuard = createRequestGuard({
  publicUrl: env.PUBLIC_URL,
  answerHeaders: securityHeaders(null, env),
  sessionCookie: sessionCookie.name,
})
/** For server.js: 503 with Retry-After while the database is away. */
export { withDatabaseOutageAnswers } from '#app/services/http/database-outage.server.ts'

function routeHandles(remixContext: EntryContext) {
  return remixContext.staticHandlerContext.matches.map(
    (match) => remixContext.routeModules[match.route.id]?.handle as RouteHandle | undefined,
  )
}

/** A page other sites may frame: its route says so with `handle = { frameable: true }` (see RouteHandle in root). */
function isFrameable(remixContext: EntryContext) {
  return routeHandles(remixContext).at(-1)?.frameable === true
}

/** A page sent as plain HTML (`hydrate: false`): nothing in the browser renders it again, so markup may be reused. */
function isStaticPage(remixContext: EntryContext) {
  return routeHandles(remixContext).some((handle) => handle?.hydrate === false)
}

const handleRequest: HandleDocumentRequestFunction = (
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) => {
  const nonce = createNonce()
  applySecurityHeaders(responseHeaders, securityHeaders(nonce, env, { frameable: isFrameable(remixContext) }))
  const waitForAll = isbot(request.headers.get('user-agent') ?? '')

  return new Promise((resolve, reject) => {
    let shellRendered = false
    let finished = false
    let abortTimer: ReturnType<typeof setTimeout> | undefined
    const finish = () => {
      finished = true
      clearTimeout(abortTimer)
    }
    const send = () => {
      shellRendered = true
      const body = new PassThrough()
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      )
      pipe(body)
    }
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <CachedMarkupProvider value={isStaticPage(remixContext) ? renderCachedMarkup : null}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </CachedMarkupProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) send()
        },
        onAllReady() {
          finish()
          if (waitForAll) send()
        },
        onShellError(error: unknown) {
          finish()
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) logError(error, requestContext(request))
        },
      },
    )
    // A render that never completes is cut off; one that completes leaves no timer behind.
    if (!finished) abortTimer = setTimeout(abort, streamTimeout + 1000)
  })
}

export default handleRequest

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  noteRequestError(error)
  // The framework's own 4xx answers (a method a route does not handle: 405) are the client's mistake, not an error.
  if (isRouteErrorResponse(error) && error.status < 500) return
  logError(error, requestContext(request))
}

/** The request's id, which server.js puts on the request it hands to Remix. */
function requestContext(request: Request) {
  return { requestId: request.headers.get(REQUEST_ID_HEADER) ?? undefined }
}
