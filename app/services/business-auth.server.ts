import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import type { z } from 'zod'
import { signInFormSchema } from '#app/models/business-schema.ts'
import { INVALID_CREDENTIALS_MESSAGE, parseSignIn, type SignInProblem } from '#app/models/sign-in-rules.ts'
import { toSessionCopy, verifyBusinessCredentials } from '#app/models/business.server.ts'
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
} from './rate-limit.server.ts'
import { parseFormSubmission, type Submission } from './form-submission.server.ts'
import { readFormData, withFormBody } from './request-body.server.ts'

export const LOGIN_FAILED_TITLE = 'Login Failed'
export const LOGIN_SUCCESS_TITLE = 'Login Successful'

export function welcomeBackMessage(businessName: string) {
  return `Welcome back, ${businessName}!`
}

export type SignInResult =
  | { ok: true; business: BusinessSessionCopy }
  | {
      ok: false
      status: 400 | 401 | 429 | 503
      title: string
      message: string
      field?: 'email' | 'password'
      retryAfterSeconds?: number
    }

function tooManyAttemptsMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

function tooManyAttempts(retryAfterSeconds: number): SignInResult {
  return {
    ok: false,
    status: 429,
    title: LOGIN_FAILED_TITLE,
    message: tooManyAttemptsMessage(retryAfterSeconds),
    retryAfterSeconds,
  }
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
 * too many passwords are being checked at once. Starting the session is the caller's part (startSession), so each
 * route can answer in its own format.
 */
export async function signInBusiness(
  input: { email?: unknown; password?: unknown },
  { ip }: { ip: string },
): Promise<SignInResult> {
  const parsed = parseSignIn(input)
  if (parsed.problem) {
    const { title, description, field } = parsed.problem
    return { ok: false, status: 400, title, message: description, field }
  }
  const { email, password } = parsed.credentials
  const key = signInAttemptKey(email, ip)
  const limit = await checkLimit(key)
  if (limit.limited) return tooManyAttempts(limit.retryAfterSeconds)
  const wait = await accountWait(email, ip)
  if (wait > 0) return tooManyAttempts(wait)
  let row
  try {
    row = await verifyBusinessCredentials(email, password)
  } catch (error) {
    // The one refusal a password check makes: every hashing slot is taken.
    if (!(error instanceof AppError) || error.status !== 503) throw error
    const { message, retryAfterSeconds } = error
    return { ok: false, status: 503, title: LOGIN_FAILED_TITLE, message, retryAfterSeconds }
  }
  if (!row) {
    await recordFailure(key)
    await recordFailure(accountFailuresKey(email))
    return { ok: false, status: 401, title: LOGIN_FAILED_TITLE, message: INVALID_CREDENTIALS_MESSAGE }
  }
  await clearFailures(key)
  await rememberAddress(knownAddressKey(email, ip))
  return { ok: true, business: toSessionCopy(row) }
}

export interface FormSignIn {
  result: SignInResult
  /** The form's reading (the form recipe's); its reply shows the answer beside the field it concerns. */
  submission: Submission<z.output<typeof signInFormSchema>>
  /** What was typed, to fill the form again when it is shown with an error. */
  email: string
  redirectTo: string | null
}

const FORM_STRATEGY = 'business-form'

const formAuthenticator = new Authenticator<SignInResult>().use(
  new FormStrategy<SignInResult>(async ({ form, request }) =>
    signInBusiness({ email: form.get('email'), password: form.get('password') }, { ip: clientIp(request) }),
  ),
  FORM_STRATEGY,
)

function refused(problem: SignInProblem | undefined): SignInResult {
  if (!problem) return { ok: false, status: 400, title: LOGIN_FAILED_TITLE, message: 'Please check the form' }
  return { ok: false, status: 400, title: problem.title, message: problem.description, field: problem.field }
}

/** The sign-in form's POST (fields email, password and optional redirectTo), read with the form's schema. */
export async function signInBusinessForm(request: Request): Promise<FormSignIn> {
  const form = await readFormData(request)
  const submission = parseFormSubmission(form, signInFormSchema)
  const typed = submission.payload.email
  const email = typeof typed === 'string' ? typed.trim().slice(0, 320) : ''
  if (submission.status !== 'success') {
    // The schema applies the same checks in the same order: this names the first failed one with its title.
    return { result: refused(parseSignIn(submission.payload).problem), submission, email, redirectTo: null }
  }
  const result = await formAuthenticator.authenticate(FORM_STRATEGY, withFormBody(request, form))
  return { result, submission, email, redirectTo: submission.value.redirectTo ?? null }
}
