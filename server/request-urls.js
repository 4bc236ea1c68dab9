// @ts-check
// Addresses the app cannot read are refused before routing, with a 400 and without a stack trace in the log.
import { URLSearchParams } from 'node:url'

/**
 * @param {import('express').Response} res
 * @param {string} message
 */
function badRequest(res, message) {
  res.status(400).json({ message })
}

/**
 * 400 for a path with broken percent-encoding (`/%c0`, `/%`) and for a NUL character anywhere in the path or the
 * query string (`?keyword=%00`): PostgreSQL cannot store or compare text holding NUL, so it never reaches a handler.
 * @param {{ containsNul: (value: unknown) => boolean, nulMessage: string }} rules
 * @returns {import('express').RequestHandler}
 */
export function refuseUnreadableUrls({ containsNul, nulMessage }) {
  return (req, res, next) => {
    const [rawPath = '', query = ''] = req.originalUrl.split(/\?(.*)/s)
    let path
    try {
      path = decodeURIComponent(rawPath)
    } catch {
      return badRequest(res, 'The address is not valid: it has broken percent-encoding.')
    }
    if (containsNul(path) || containsNul([...new URLSearchParams(query)])) return badRequest(res, nulMessage)
    next()
  }
}
