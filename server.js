// @ts-check
// The HTTP server: Express in front of the Remix build (docs/decisions/004-own-server.md), in production and in
// development alike. Usage: node server.js [build/server/index.js]; PORT (default 3000) and HOST say where it listens.
// With NODE_ENV=development (`npm run dev`) Vite builds the app from its sources as they change (middleware mode); the
// middleware in front of Remix is the same in both modes, only where the build and the browser's files come from
// differs.
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { createReadableStreamFromReadable, createRequestHandler, installGlobals } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import { gracefulShutdown } from './server/graceful-shutdown.js'
import { boundRequestBodies, closeAfterAnswer, requestBody } from './server/request-bodies.js'
import { refuseUnreadableUrls } from './server/request-urls.js'

process.env.NODE_ENV ??= 'production'

/** Milliseconds since the process started (Node's time origin) when this file's modules had loaded. */
const serverModulesLoaded = performance.now()
/** The same, once the port listens. */
let listeningAt = /** @type {number | undefined} */ (undefined)

const app = express()
/** Until the app is ready every request is answered 503 (answerStarting); then Express answers them. */
let ready = false
const server = http.createServer((req, res) => (ready ? app(req, res) : answerStarting(req, res)))

const STARTING_MESSAGE = 'The server is starting. Please try again in a moment.'

/**
 * While the app loads and the database opens (a restart replays the database's log), a client is told to come back
 * in a second (503 with `Retry-After: 1`) rather than finding the port closed. `/healthz` answers 503 too, so a
 * load balancer keeps traffic away until it answers 200. The connection is closed after the answer: a request body
 * is not handed on, only read and dropped until the client has the answer (an upload is not reset mid-way).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function answerStarting(req, res) {
  closeAfterAnswer(req, res)
  const json = /^\/(api\/|healthz)/.test(req.url ?? '')
  const body = json
    ? JSON.stringify(req.url?.startsWith('/healthz') ? { status: 'starting' } : { message: STARTING_MESSAGE })
    : STARTING_MESSAGE
  res.writeHead(503, {
    'Retry-After': '1',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
}

const port = Number(process.env.PORT || 3000)
const host = process.env.HOST || undefined
/** Listening before the app is loaded: see answerStarting. */
await new Promise((resolve, reject) => {
  server.once('error', reject)
  const onListening = () => {
    server.off('error', reject)
    listeningAt = performance.now()
    resolve(undefined)
  }
  // Without HOST, every interface (as Node does by default).
  if (host) server.listen(port, host, onListening)
  else server.listen(port, onListening)
})

/** Development only: Vite (a development dependency, never imported in production). */
const vite = process.env.NODE_ENV === 'development' ? await startVite() : undefined

/**
 * Vite in middleware mode, its hot-reload socket on this server. The compiler the Remix plugin starts inside it would
 * end the process on SIGTERM (exit 143) before the requests in flight finish and the database closes: its listeners
 * are taken off, and the server's one shutdown sequence (server/graceful-shutdown.js) closes Vite instead.
 */
async function startVite() {
  const { createServer } = await import('vite')
  const signalListeners = new Set(process.listeners('SIGTERM'))
  const stdinListeners = new Set(process.stdin.listeners('end'))
  const devServer = await createServer({
    server: { middlewareMode: true, hmr: { server } },
    appType: 'custom',
  })
  for (const listener of process.listeners('SIGTERM'))
    if (!signalListeners.has(listener)) process.off('SIGTERM', listener)
  for (const listener of process.stdin.listeners('end'))
    if (!stdinListeners.has(listener))
      process.stdin.off('end', /** @type {(...args: unknown[]) => void} */ (listener))
  return devServer
}
/**
 * The Remix build as Vite has it now: loaded again for each request, so a changed module is picked up.
 * @returns {Promise<import('@remix-run/node').ServerBuild>}
 */
const currentDevBuild = async () =>
  /** @type {import('@remix-run/node').ServerBuild} */ (
    /** @type {unknown} */ (await vite?.ssrLoadModule('virtual:remix/server-build'))
  )

/**
 * The build whose entry gives the middleware below what it needs (in development, the one at start-up: a change to
 * what entry.server.tsx exports for this file needs a restart, as a change to this file does).
 * @type {import('@remix-run/node').ServerBuild}
 */
const build = vite
  ? await currentDevBuild()
  : await import(pathToFileURL(path.resolve(process.argv[2] ?? 'build/server/index.js')).href)
installGlobals({ nativeFetch: build.future.v3_singleFetch })
/** What the app's server entry exports for this file: the shared page cache and the proxy setting. */
const {
  gzippedBody,
  keepPage,
  lookupPage,
  forgetStoredPages,
  requestGuard,
  trustProxy,
  withDatabaseOutageAnswers,
  BODY_MAX_BYTES,
  MULTIPART_BODY_MAX_BYTES,
  containsNul,
  NUL_MESSAGE,
  shutdownTimeoutMs,
  stopJobsAndCloseDatabase,
  logStarted,
  createRequestObserver,
  logError,
  REQUEST_ID_HEADER,
} = entryOf(build)
const handleRequest = withDatabaseOutageAnswers(
  createRequestHandler(vite ? currentDevBuild : build, process.env.NODE_ENV),
)

/**
 * What the app's server entry exports for this file.
 * @param {import('@remix-run/node').ServerBuild} serverBuild
 */
function entryOf(serverBuild) {
  return /** @type {typeof import('./app/entry.server.tsx')} */ (
    /** @type {unknown} */ (serverBuild.entry.module)
  )
}

/** @param {import('express').Request} req */
function pageRequest(req) {
  return {
    method: req.method,
    url: `${req.headers.host}${req.originalUrl}`,
    hasCookie: Boolean(req.headers.cookie),
    ip: req.ip,
    userAgent: req.headers['user-agent'],
    header: (/** @type {string} */ name) => req.get(name),
  }
}

/**
 * Answers from the shared page cache, before compression (a stored page carries its own gzip copy) and before Remix.
 * @type {import('express').RequestHandler}
 */
function serveStoredPage(req, res, next) {
  const page = lookupPage(pageRequest(req))
  if (!page) return next()
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip'
  const body = gzip ? gzippedBody(page) : page.body
  res.statusCode = page.status
  for (const [name, value] of page.headers) res.setHeader(name, value)
  res.setHeader('Vary', 'Cookie, Accept-Encoding')
  res.setHeader('Age', String(Math.floor((Date.now() - page.storedAt) / 1000)))
  if (gzip) res.setHeader('Content-Encoding', 'gzip')
  res.setHeader('Content-Length', String(body.length))
  res.end(req.method === 'HEAD' ? undefined : body)
}

/**
 * The Fetch request Remix expects; it is aborted if the client goes away before the response is finished.
 * @param {import('express').Request} req
 * @param {import('express').Response} res
 */
function toFetchRequest(req, res) {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.headers.host ?? 'localhost'}`)
  const headers = new Headers()
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '')
  // The app reads the client's address from X-Forwarded-For, so it must hold what this server vouches for: the
  // socket's address, or a trusted proxy's word (TRUST_PROXY). Whatever the client sent is replaced.
  headers.delete('X-Forwarded-For')
  if (req.ip) headers.set('X-Forwarded-For', req.ip)
  // The id this server gave the request (see createRequestObserver), for the app's error lines.
  headers.set(REQUEST_ID_HEADER, String(res.getHeader(REQUEST_ID_HEADER)))
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  /** @type {RequestInit & { duplex?: 'half' }} */
  const init = { method: req.method, headers, signal: controller.signal }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(requestBody(req))
    init.duplex = 'half'
  }
  return new Request(url, init)
}

/**
 * @param {import('express').Response} res
 * @param {Response} response
 */
async function sendResponse(res, response) {
  res.status(response.status)
  if (response.statusText) res.statusMessage = response.statusText
  for (const [name, value] of response.headers) res.append(name, value)
  if (!response.body) {
    res.end()
    return
  }
  // Each chunk waits until the client has taken the previous ones, so a paused download holds a few buffers, not the
  // rest of the file.
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // The client may have left while the next chunk was being read: stop reading (closes a file, say).
      if (res.destroyed) return void (await reader.cancel())
      if (!res.write(value)) await drainedOrClosed(res)
    }
    res.end()
  } catch (error) {
    // A client that leaves mid-response is not a server error.
    if (!res.destroyed) throw error
  }
}

/** @param {import('express').Response} res */
function drainedOrClosed(res) {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(undefined)
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve(undefined)
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** @type {import('express').RequestHandler} */
async function remix(req, res, next) {
  let request
  try {
    request = toFetchRequest(req, res)
  } catch {
    res.status(400).type('text/plain').send('Bad Request')
    return
  }
  try {
    const response = await handleRequest(request)
    await sendResponse(res, await keepPage(pageRequest(req), response))
  } catch (error) {
    next(error)
  }
}

const clientDir = build.assetsBuildDirectory
const assetsPrefix = `${build.publicPath}assets`
/** Files at the top of the client build (the favicon): a set, so other requests never touch the disk. */
const rootFiles = new Set(
  vite
    ? []
    : fs
        .readdirSync(clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `${build.publicPath}${entry.name}`),
)
/** What Vite serves in development: its client, the sources as modules, the dependencies, public/. */
const VITE_FILE = /^\/(@|app\/|node_modules\/|favicon)/

const { trackRequests } = gracefulShutdown({
  server,
  timeoutMs: shutdownTimeoutMs,
  closeApp: vite
    ? async () => {
        // The jobs of the app as Vite has it now (a reloaded module may have started its own), then Vite itself.
        await entryOf(await currentDevBuild()).stopJobsAndCloseDatabase()
        await vite.close()
      }
    : stopJobsAndCloseDatabase,
})
app.disable('x-powered-by')
app.set('trust proxy', trustProxy ?? false)
// A request id, one log line per request (its path, never its query string) and the metrics, for every request.
app.use(
  createRequestObserver({
    routes: build.routes,
    isStaticFile: vite
      ? (path) => VITE_FILE.test(path)
      : (path) => path.startsWith(`${assetsPrefix}/`) || rootFiles.has(path),
    fromTrustedProxy: (req) => app.get('trust proxy fn')(req.socket.remoteAddress ?? '', 0),
  }),
)
// First: the guard sets the security headers of every answer, the refusals that follow included.
app.use(requestGuard)
app.use(trackRequests)
app.use(refuseUnreadableUrls({ containsNul, nulMessage: NUL_MESSAGE }))
app.use(boundRequestBodies({ bodyMaxBytes: BODY_MAX_BYTES, multipartMaxBytes: MULTIPART_BODY_MAX_BYTES }))
app.use(serveStoredPage)
app.use(compression())
if (vite) {
  app.use(vite.middlewares)
  // A page stored before a source changed would show the old code for up to 15 s.
  vite.watcher.on('change', forgetStoredPages)
} else {
  const serveRootFile = express.static(clientDir, { maxAge: '1h', index: false })
  app.use(
    assetsPrefix,
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }),
  )
  app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()))
}
app.all('*', remix)
app.use(
  /** @type {import('express').ErrorRequestHandler} */
  (error, _req, res, _next) => {
    // The stack trace of a module Vite built points into its source.
    if (vite && error instanceof Error) vite.ssrFixStacktrace(error)
    logError(error, { requestId: String(res.getHeader(REQUEST_ID_HEADER)) })
    if (res.headersSent) res.destroy()
    else res.status(500).type('text/plain').send('Internal Server Error')
  },
)

ready = true
logStarted({ serverModules: serverModulesLoaded, listening: listeningAt, serving: performance.now() })
console.info(`EventShout is listening on http://${host ?? 'localhost'}:${port}`)
