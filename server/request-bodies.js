// @ts-check
// Request bodies are bounded before anything reads them, and a connection is never left holding an unread body.
import { Transform } from 'node:stream'
import { clearTimeout, setTimeout } from 'node:timers'

/** An unread body up to this size is read and dropped after the answer, so the connection stays usable. */
const DRAIN_MAX_BYTES = 1024 * 1024
/** How long a connection closed on an unread body goes on reading (and dropping) what the client still sends. */
const LINGER_MS = 2000

/** @type {WeakMap<import('node:http').IncomingMessage, import('node:stream').Readable>} */
const boundedBodies = new WeakMap()

/**
 * The body to hand to the app: the request itself, counted and cut off past its limit with a `BODY_TOO_LARGE`
 * error (which the app's body readers answer with 413), so a chunked body without Content-Length is bounded too.
 * The app reads (and may cancel) this stream, never the socket's, so its cancel cannot destroy the connection.
 * @param {import('node:http').IncomingMessage} req
 */
export function requestBody(req) {
  return boundedBodies.get(req) ?? req
}

/** @param {string} contentType */
function limitFor(contentType, { bodyMaxBytes = 0, multipartMaxBytes = 0 }) {
  return /^multipart\//i.test(contentType) ? multipartMaxBytes : bodyMaxBytes
}

/**
 * Answers with `Connection: close`, then goes on reading what the client still sends for a moment before closing:
 * closing a socket with unread data in it resets the connection, and the reset can destroy the answer before the
 * client has read it (a "lingering close", as web servers do). Also for the answers server.js gives before the app
 * is loaded and while it stops, which never read a body.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
export function closeAfterAnswer(req, res) {
  res.setHeader('Connection', 'close')
  const socket = req.socket
  // Node calls destroySoon once the answer is written to a connection that is to be closed.
  socket.destroySoon = () => {
    socket.end()
    req.unpipe()
    req.resume()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('express').Response} res
 * @param {number} limit
 */
function tooLarge(req, res, limit) {
  closeAfterAnswer(req, res)
  res
    .status(413)
    .json({ message: `The request body is too large (at most ${Math.floor(limit / (1024 * 1024))} MB).` })
}

/**
 * After an answer given without reading the whole body (a 401 or 404 before the body was looked at, a refusal
 * half-way), Node would keep the connection open with the rest of the body still in it, and the client's next
 * request on that connection would fail. A small declared body is read and dropped after the answer; otherwise
 * the answer says `Connection: close`.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('express').Response} res
 */
function settleUnreadBody(req, res) {
  const declared = Number(req.headers['content-length'] ?? Number.NaN)
  const drainable = Number.isFinite(declared) && declared <= DRAIN_MAX_BYTES
  const writeHead = res.writeHead
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      if (!req.complete && !drainable) closeAfterAnswer(req, res)
      return writeHead.apply(res, /** @type {any} */ (args))
    }
  )
  res.once('finish', () => {
    if (req.complete || !drainable) return
    req.unpipe()
    req.resume()
  })
}

/**
 * The middleware: 413 at once when the declared length is over the limit (JSON, url-encoded and any other body:
 * `bodyMaxBytes`; multipart: `multipartMaxBytes`), otherwise the body is counted as it arrives.
 * @param {{ bodyMaxBytes: number, multipartMaxBytes: number }} limits
 * @returns {import('express').RequestHandler}
 */
export function boundRequestBodies(limits) {
  return (req, res, next) => {
    const hasBody =
      req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    const limit = limitFor(req.headers['content-type'] ?? '', limits)
    if (hasBody) settleUnreadBody(req, res)
    if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge(req, res, limit)
    // Also for an empty body: the app cancelling its body stream must never destroy the connection itself.
    let seen = 0
    const counted = new Transform({
      transform(chunk, _encoding, callback) {
        seen += chunk.length
        if (seen <= limit) return callback(null, chunk)
        callback(Object.assign(new Error('The request body is over its limit'), { code: 'BODY_TOO_LARGE' }))
      },
    })
    req.pipe(counted)
    boundedBodies.set(req, counted)
    next()
  }
}
