import type { StaffRole } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'
import { requireRole, type SessionUser } from './auth.server.ts'
import { combineHeaders, errorResponse, type ErrorAnswerOptions } from './http.server.ts'

/**
 * A staff member holding `role`, for a JSON call: signed out is an unauthenticated AppError with `signedOutMessage`
 * (a script cannot follow the pages' sign-in redirect); signed in without the role, the guard's 403 as for a page.
 */
export async function requireRoleForJson(
  request: Request,
  role: StaffRole,
  signedOutMessage = 'Unauthorized',
): Promise<SessionUser> {
  try {
    return await requireRole(request, role)
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      throw new AppError(signedOutMessage, 'unauthenticated')
    }
    throw thrown
  }
}

/**
 * Runs a JSON call's handler and answers with `options.headers` on every answer (no-store): what it returns, or
 * what it throws converted by {@link errorResponse} with the same options.
 */
export async function answerCall(
  run: () => Promise<Response>,
  options: ErrorAnswerOptions,
): Promise<Response> {
  try {
    const response = await run()
    if (!options.headers) return response
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: combineHeaders(response.headers, options.headers),
    })
  } catch (thrown) {
    return errorResponse(thrown, options)
  }
}
