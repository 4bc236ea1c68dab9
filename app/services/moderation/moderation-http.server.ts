import { OPEN_ENDED_DATE_LIMIT, UNSET_DATE } from '#app/constants.ts'
import { requireRole, type SessionUser } from '../accounts/auth.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { ALL_DAYS } from '#app/models/moderation/moderation-schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { isValidIsoDate } from '#app/utils/time.ts'

export const UNAUTHORIZED_MESSAGE = 'Unauthorized'
export const BAD_REVIEW_DATE_MESSAGE = `date must be a date in the form yyyy-mm-dd, or ${ALL_DAYS}`

/**
 * An administrator for /api/admin/*: signed out is a 401 AppError (a script cannot follow a sign-in redirect), signed
 * in without the admin role the guard's 403.
 */
export async function requireAdminApi(request: Request): Promise<SessionUser> {
  try {
    return await requireRole(request, 'admin')
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      throw new AppError(UNAUTHORIZED_MESSAGE, 'unauthenticated')
    }
    throw thrown
  }
}

/**
 * The upload date from ?date= (today in the platform time zone when absent), or null when it is not a real date
 * within the years the platform can have uploads in (a day range past year 9999 cannot even be computed).
 */
export function uploadDateParam(request: Request): string | null {
  const raw = new URL(request.url).searchParams.get('date')?.trim()
  if (!raw) return platformToday()
  return isValidIsoDate(raw) && raw >= UNSET_DATE && raw <= OPEN_ENDED_DATE_LIMIT ? raw : null
}

/** The moderation page's day: {@link uploadDateParam}, or {@link ALL_DAYS}. */
export function reviewQueueDateParam(request: Request): string | null {
  return new URL(request.url).searchParams.get('date')?.trim() === ALL_DAYS
    ? ALL_DAYS
    : uploadDateParam(request)
}
