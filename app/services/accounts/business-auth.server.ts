import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import type { z } from 'zod'
import { signInFormSchema } from '#app/models/accounts/business-schema.ts'
import {
  INVALID_CREDENTIALS_MESSAGE,
  parseSignIn,
  type SignInProblem,
} from '#app/models/accounts/sign-in-rules.ts'
import { toSessionCopy, verifyBusinessCredentials } from '#app/models/accounts/business.server.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  ACCOUNT_GUESS_INTERVAL_MS,
  ACCOUNT_SLOWDOWN_AFTER_FAILURES,
  accountFailuresKey,
  accountGuessKey,
  checkLimit,
  claimInterval,
  clearFailures,
  clientIp,
  isKnownAddress,
  knownAddressKey,
  recordFailure,
  rememberAddress,
  signInAttemptKey,
} from '../platform/rate-limit.server.ts'
import { parseFormSubmission, type Submission } from '../http/form-submission.server.ts'
import { readFormData, withFormBody } from '../http/request-body.server.ts'

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

/** A refusal of the sign-in form's checks: 400, titled, beside the field it concerns. */
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
 * Business email + password sign-in, shared by the sign-in page and POST /api/business/login: the checks of spec §5
 * in order (400), the rate limits per email and address and per account (429), the credentials (401); 503 when
 * too many passwords are being checked at once; each refusal a thrown AppError titled for the toast, a check's
 * beside its field. Starting the session is the caller's part (startSession), so each route answers in its own format.
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

export interface FormSignIn {
  /** The signed-in business, or the refusal (an AppError) the form shows. */
  result: { business: BusinessSessionCopy; refusal?: never } | { refusal: unknown; business?: never }
  /** The form's reading (the form recipe's); its reply shows the answer beside the field it concerns. */
  submission: Submission<z.output<typeof signInFormSchema>>
  /** What was typed, to fill the form again when it is shown with an error. */
  email: string
  redirectTo: string | null
}

const FORM_STRATEGY = 'business-form'

const formAuthenticator = new Authenticator<BusinessSessionCopy>().use(
  new FormStrategy<BusinessSessionCopy>(async ({ form, request }) =>
    signInBusiness({ email: form.get('email'), password: form.get('password') }, { ip: clientIp(request) }),
  ),
  FORM_STRATEGY,
)

/**
 * The sign-in form's POST (fields email, password and optional redirectTo), read with the form's schema. A body the
 * reader refuses is thrown; a refused sign-in comes back as `result.refusal` with what the form needs to show it.
 */
export async function signInBusinessForm(request: Request): Promise<FormSignIn> {
  const form = await readFormData(request)
  const submission = parseFormSubmission(form, signInFormSchema)
  const typed = submission.payload.email
  const email = typeof typed === 'string' ? typed.trim().slice(0, 320) : ''
  if (submission.status !== 'success') {
    // The schema applies the same checks in the same order: this names the first failed one with its title.
    return {
      result: { refusal: refused(parseSignIn(submission.payload).problem) },
      submission,
      email,
      redirectTo: null,
    }
  }
  const redirectTo = submission.value.redirectTo ?? null
  try {
    const business = await formAuthenticator.authenticate(FORM_STRATEGY, withFormBody(request, form))
    return { result: { business }, submission, email, redirectTo }
  } catch (refusal) {
    return { result: { refusal }, submission, email, redirectTo }
  }
}
