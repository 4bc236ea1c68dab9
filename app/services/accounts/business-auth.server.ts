import {
  INVALID_CREDENTIALS_MESSAGE,
  parseSignIn,
  type SignInProblem,
} from '#app/models/accounts/sign-in-rules.ts'
import {
  toSessionCopy,
  verifyBusinessCredentials,
  type BusinessSessionCopy,
} from '#app/models/accounts/business.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  ACCOUNT_GUESS_INTERVAL_MS,
  ACCOUNT_SLOWDOWN_AFTER_FAILURES,
  accountFailuresKey,
  accountGuessKey,
  checkLimit,
  claimInterval,
  clearFailures,
  isKnownAddress,
  knownAddressKey,
  recordFailure,
  rememberAddress,
  signInAttemptKey,
} from '../platform/rate-limit.server.ts'

export const LOGIN_FAILED_TITLE = 'Login Failed'
export const LOGIN_SUCCESS_TITLE = 'Login Successful'

export function welcomeBackMessage(businessName: string) {
  return `Welcome back, ${businessName}!`
}

function tooManyAttemptsMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

function tooManyAttempts(retryAfterSeconds: number) {
  return new AppError(tooManyAttemptsMessage(retryAfterSeconds), 'too_many_requests', {
    title: LOGIN_FAILED_TITLE,
    retryAfterSeconds,
  })
}

/** A refusal of the sign-in form's checks: invalid, titled, beside the field it concerns. */
function refused(problem: SignInProblem | undefined) {
  if (!problem) return new AppError('Please check the form', 'invalid', { title: LOGIN_FAILED_TITLE })
  const { title, description, field } = problem
  return new AppError(description, 'invalid', { title, fieldErrors: { [field]: [description] } })
}

/**
 * Whether a sign-in at this account may go ahead, when many addresses together have failed at it: only one attempt
 * per interval from addresses it has not seen sign in (0 = go ahead, else seconds to wait).
 */
async function accountWait(email: string, ip: string) {
  const failures = await checkLimit(accountFailuresKey(email), { max: ACCOUNT_SLOWDOWN_AFTER_FAILURES })
  if (!failures.limited || (await isKnownAddress(knownAddressKey(email, ip)))) return 0
  return claimInterval(accountGuessKey(email), ACCOUNT_GUESS_INTERVAL_MS)
}

/**
 * Business email + password sign-in from the client's address `ip`, shared by the sign-in page, POST
 * /api/business/login and the linking of a provider sign-in: the sign-in checks in order (invalid), the rate
 * limits per email and address and per account (too many requests), the credentials (unauthenticated); unavailable
 * when too many passwords are being checked at once; each refusal a thrown AppError titled for the toast, a check's
 * beside its field. Starting the session is the caller's part, so each route answers in its own format.
 */
export async function signInBusiness(
  input: { email?: unknown; password?: unknown },
  { ip }: { ip: string },
): Promise<BusinessSessionCopy> {
  const parsed = parseSignIn(input)
  if (parsed.problem) throw refused(parsed.problem)
  const { email, password } = parsed.credentials
  const key = signInAttemptKey(email, ip)
  const limit = await checkLimit(key)
  if (limit.limited) throw tooManyAttempts(limit.retryAfterSeconds)
  const wait = await accountWait(email, ip)
  if (wait > 0) throw tooManyAttempts(wait)
  let row
  try {
    row = await verifyBusinessCredentials(email, password)
  } catch (error) {
    // The one refusal a password check makes: every hashing slot is taken.
    if (!(error instanceof AppError) || error.kind !== 'unavailable') throw error
    const { message, retryAfterSeconds } = error
    throw new AppError(message, 'unavailable', { title: LOGIN_FAILED_TITLE, retryAfterSeconds, cause: error })
  }
  if (!row) {
    await recordFailure(key)
    await recordFailure(accountFailuresKey(email))
    throw new AppError(INVALID_CREDENTIALS_MESSAGE, 'unauthenticated', { title: LOGIN_FAILED_TITLE })
  }
  await clearFailures(key)
  await rememberAddress(knownAddressKey(email, ip))
  return toSessionCopy(row)
}

/**
 * The refusal of a sign-in form whose schema (`signInFormSchema`) failed: it applies the same checks in the same
 * order, so this names the first failed one with its title.
 */
export function signInFormRefusal(payload: { email?: unknown; password?: unknown }) {
  return refused(parseSignIn(payload).problem)
}
