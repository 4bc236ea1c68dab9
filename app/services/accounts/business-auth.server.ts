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
  claimInterval,
  clearFailures,
  giveBackSlot,
  isKnownAddress,
  knownAddressKey,
  rememberAddress,
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_WINDOW_MS,
  signInAttemptKey,
  takeSlot,
  type TakenSlot,
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
 * A sign-in's turn at this account: one of the failures many addresses together may have at it (its slot, given back
 * unless the password was wrong), or, once those are taken, a go-ahead without a slot for an address that signed in
 * to it before and for one attempt per interval from all others (the rest are too many requests).
 */
async function takeAccountTurn(email: string, ip: string): Promise<TakenSlot | null> {
  const taken = await takeSlot(accountFailuresKey(email), {
    max: ACCOUNT_SLOWDOWN_AFTER_FAILURES,
    windowMs: SIGN_IN_WINDOW_MS,
  })
  if (taken.allowed) return taken.slot
  if (await isKnownAddress(knownAddressKey(email, ip))) return null
  const wait = await claimInterval(accountGuessKey(email), ACCOUNT_GUESS_INTERVAL_MS)
  if (wait > 0) throw tooManyAttempts(wait)
  return null
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
  // Only failures count, but the slots are taken before the password is checked, so a burst of guesses at once
  // gets no more checks than one guess after another would.
  const key = signInAttemptKey(email, ip)
  const attempt = await takeSlot(key, { max: SIGN_IN_MAX_FAILURES, windowMs: SIGN_IN_WINDOW_MS })
  if (!attempt.allowed) throw tooManyAttempts(attempt.retryAfterSeconds)
  let accountTurn: TakenSlot | null
  try {
    accountTurn = await takeAccountTurn(email, ip)
  } catch (error) {
    await giveBackSlot(attempt.slot)
    throw error
  }
  let row
  try {
    row = await verifyBusinessCredentials(email, password)
  } catch (error) {
    // No password was checked: neither slot counts.
    await Promise.all([giveBackSlot(attempt.slot), accountTurn && giveBackSlot(accountTurn)])
    // The one refusal a password check makes: every hashing slot is taken.
    if (!(error instanceof AppError) || error.kind !== 'unavailable') throw error
    const { message, retryAfterSeconds } = error
    throw new AppError(message, 'unavailable', { title: LOGIN_FAILED_TITLE, retryAfterSeconds, cause: error })
  }
  if (!row) throw new AppError(INVALID_CREDENTIALS_MESSAGE, 'unauthenticated', { title: LOGIN_FAILED_TITLE })
  if (accountTurn) await giveBackSlot(accountTurn)
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
