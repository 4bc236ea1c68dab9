// @ts-check
// The server's one shutdown sequence (SIGTERM from a deploy or a supervisor, SIGINT from a terminal): stop accepting
// connections, let every request in flight finish, answer what still arrives on a kept-alive connection with 503, then
// stop the jobs and close the database.
import net from 'node:net'
import { clearTimeout, setTimeout } from 'node:timers'
import { closeAfterAnswer } from './request-bodies.js'

/** What a client sent away during a shutdown is told to wait before trying again (another server, or this one back). */
const RETRY_AFTER_SECONDS = 2
const RESTARTING_MESSAGE = 'The server is restarting. Please try again in a moment.'
/** How long a 503 given during the shutdown may take to reach its client (it reads an unread body meanwhile). */
const LAST_ANSWERS_MS = 2000
/**
 * How long a connection idle at the shutdown is kept at most: long enough for a request already on its way to be
 * answered 503, short of the 5 s its last answer allowed, since every stop with a client holding a connection open
 * would take that long. A request after it finds the connection closed, as after any keep-alive timeout.
 */
const IDLE_CONNECTIONS_KEPT_MS = 2000

/** @param {number} ms */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref())

/**
 * @param {object} options
 * @param {import('node:http').Server} options.server
 * @param {number} options.timeoutMs how long requests in flight may take to finish before they are cut
 * @param {() => Promise<void>} options.closeApp stops the jobs and closes the database
 * @param {(message: string) => void} [options.log]
 */
export function gracefulShutdown({ server, timeoutMs, closeApp, log = console.info }) {
  /** @type {Set<import('express').Response>} */
  const inFlight = new Set()
  let draining = false
  /** @type {() => void} */
  let onIdle = () => {}

  /**
   * Counts the requests in flight, and while shutting down answers a new request on a kept-alive connection with 503
   * (JSON `{ message }` on the JSON calls, as their other errors) and closes that connection once the client has the
   * answer (an upload's body is read and dropped meanwhile, so the client is not reset before it reads it).
   * @type {import('express').RequestHandler}
   */
  function trackRequests(req, res, next) {
    if (draining) {
      closeAfterAnswer(req, res)
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      res.setHeader('Cache-Control', 'no-store')
      res.status(503)
      if (req.path.startsWith('/api/')) res.json({ message: RESTARTING_MESSAGE })
      else res.type('text/plain').send(RESTARTING_MESSAGE)
      return
    }
    inFlight.add(res)
    res.once('close', () => {
      inFlight.delete(res)
      if (draining && inFlight.size === 0) onIdle()
    })
    next()
  }

  /** Resolves true once no request is in flight, false when the timeout came first. */
  function drained() {
    if (inFlight.size === 0) return Promise.resolve(true)
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs)
      onIdle = () => {
        clearTimeout(timer)
        resolve(true)
      }
    })
  }

  /**
   * Stops listening and resolves once every connection has closed. Not `server.close()`: it also closes the idle
   * kept-alive connections at once, and a request a client sends on one at that moment (its answer said the
   * connection stays open for `keepAliveTimeout`) would meet a closed connection instead of an answer.
   */
  function stopListening() {
    return new Promise((resolve) => net.Server.prototype.close.call(server, () => resolve(undefined)))
  }

  /**
   * A connection idle since its last answer is kept a moment (IDLE_CONNECTIONS_KEPT_MS, at most what that answer
   * promised), so a request already sent on it meets the 503 above rather than a closed connection. The wait starts
   * once the requests in flight are done (the 503s close their own connections).
   * @param {Promise<unknown>} allClosed
   */
  async function closeConnectionsOncePromisesEnd(allClosed) {
    const keptMs = Math.min(server.keepAliveTimeout, IDLE_CONNECTIONS_KEPT_MS)
    if (await Promise.race([allClosed.then(() => true), delay(keptMs).then(() => false)])) return
    server.closeIdleConnections()
    // What is left is a 503 on its way to its client.
    await Promise.race([allClosed, delay(LAST_ANSWERS_MS)])
    server.closeAllConnections()
  }

  /** @param {NodeJS.Signals} signal */
  async function shutdown(signal) {
    if (draining) {
      // A second signal (Ctrl-C again): the operator does not want to wait.
      log(`${signal} again: stopping now`)
      process.exit(1)
    }
    draining = true
    log(`${signal}: no new connections; finishing ${inFlight.size} request(s) in flight`)
    const allClosed = stopListening()
    const finished = await drained()
    if (!finished) {
      console.warn(
        `${inFlight.size} request(s) still in flight after ${timeoutMs} ms: closing their connections`,
      )
      server.closeAllConnections()
    }
    // The database closes while idle connections wait out their keep-alive: what still arrives is answered 503.
    const connectionsClosed = closeConnectionsOncePromisesEnd(allClosed)
    try {
      await closeApp()
    } catch (error) {
      console.error('Closing the application failed', error)
      process.exit(1)
    }
    await connectionsClosed
    process.exit(finished ? 0 : 1)
  }

  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT']))
    process.on(signal, () => void shutdown(signal))
  return { trackRequests }
}
