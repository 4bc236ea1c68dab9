// @ts-check
// The server's one shutdown sequence (SIGTERM from a deploy or a supervisor, SIGINT from a terminal): stop accepting
// connections, let every request in flight finish, then stop the jobs and close the database.
import { clearTimeout, setImmediate, setTimeout } from 'node:timers'

/** What a client sent away during a shutdown is told to wait before trying again (another server, or this one back). */
const RETRY_AFTER_SECONDS = 2
const RESTARTING_MESSAGE = 'The server is restarting. Please try again in a moment.'

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
   * (JSON `{ message }` on the JSON calls, as their other errors) and closes that connection.
   * @type {import('express').RequestHandler}
   */
  function trackRequests(req, res, next) {
    if (draining) {
      res.setHeader('Connection', 'close')
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
      if (!draining) return
      // A request the client already sent on this connection (pipelined) is answered 503 above; a connection left
      // with nothing to do is closed rather than kept alive for a server that is going away.
      setImmediate(() => server.closeIdleConnections())
      if (inFlight.size === 0) onIdle()
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

  /** @param {NodeJS.Signals} signal */
  async function shutdown(signal) {
    if (draining) {
      // A second signal (Ctrl-C again): the operator does not want to wait.
      log(`${signal} again: stopping now`)
      process.exit(1)
    }
    draining = true
    log(`${signal}: no new connections; finishing ${inFlight.size} request(s) in flight`)
    server.close()
    server.closeIdleConnections()
    const finished = await drained()
    if (!finished) {
      console.warn(
        `${inFlight.size} request(s) still in flight after ${timeoutMs} ms: closing their connections`,
      )
      server.closeAllConnections()
    }
    try {
      await closeApp()
    } catch (error) {
      console.error('Closing the application failed', error)
      process.exit(1)
    }
    process.exit(finished ? 0 : 1)
  }

  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT']))
    process.on(signal, () => void shutdown(signal))
  return { trackRequests }
}
