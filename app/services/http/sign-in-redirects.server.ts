/**
 * Where a sign-in through /api/login ends: the session started and the redirect home (or to where the user was going)
 * with its welcome, the redirect to the form that asks for the business password, or back to /login with the
 * failure's toast; and the short-lived signed cookies that carry a sign-in across the round trip (where to return to,
 * a link waiting for the business password).
 */
import { createCookie, redirect } from '@remix-run/node'
import type { StaffRole } from '#app/constants.ts'
import { toSessionCopy } from '#app/models/accounts/business.server.ts'
import { pendingLinkSchema, type PendingLink } from '#app/models/accounts/identity-sign-in-schema.ts'
import { toSessionUser, type IdentityProfile } from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { Business, User } from '#db/schema.ts'
import { getEnv, type Env } from '../platform/env.server.ts'
import { startSession, type SessionIdentity } from './auth.server.ts'
import { combineHeaders, safeRedirect } from './http.server.ts'
import { redirectWithToast } from './toast.server.ts'

export const SIGN_IN_CANCELLED_TITLE = 'Sign-in Cancelled'
export const SIGN_IN_CANCELLED_MESSAGE =
  'You cancelled signing in with the identity provider, so you are not signed in.'
export const SIGN_IN_FAILED_TITLE = 'Sign-in Failed'
export const SIGN_IN_FAILED_MESSAGE = 'Signing in with the identity provider did not work. Please try again.'

/** Back to /login with the failure told in a toast. */
export function signInFailure(description: string, title = SIGN_IN_FAILED_TITLE, headers?: Headers) {
  return redirectWithToast('/login', { title, description, variant: 'destructive' }, { headers })
}

/** The name of the cookie that keeps where to come back to after the provider. */
export const RETURN_TO_COOKIE = 'es_login_next'

/** A signed cookie that lives only for the ten minutes of a sign-in round trip, sent only to /api/login. */
function loginRoundTripCookie(name: string, env: Env) {
  return createCookie(name, {
    httpOnly: true,
    sameSite: 'lax',
    secure: env.isProduction,
    path: '/api/login',
    maxAge: 10 * 60,
    secrets: env.sessionSecrets,
  })
}

/** Where to come back to after the provider, kept across the round trip in a short-lived signed cookie. */
export function returnToCookie(env: Env = getEnv()) {
  return loginRoundTripCookie(RETURN_TO_COOKIE, env)
}

const LINK_PATH = '/api/login/link'

function pendingLinkCookie(env: Env = getEnv()) {
  return loginRoundTripCookie('es_link', env)
}

/** The sign-in set aside (a few minutes, in a signed cookie) and the redirect to the form that asks for the password. */
async function askForBusinessPassword(pending: PendingLink, headers?: Headers): Promise<Response> {
  return redirect(LINK_PATH, {
    headers: combineHeaders(headers, { 'Set-Cookie': await pendingLinkCookie().serialize(pending) }),
  })
}

/** The sign-in waiting for the business password; null when there is none (expired, forged). */
export async function readPendingLink(request: Request): Promise<PendingLink | null> {
  const parsed = pendingLinkSchema.safeParse(await pendingLinkCookie().parse(request.headers.get('Cookie')))
  return parsed.success ? parsed.data : null
}

/** The headers that use up the pending link. */
export async function clearPendingLink(): Promise<Headers> {
  return new Headers({ 'Set-Cookie': await pendingLinkCookie().serialize('', { maxAge: 0 }) })
}

function homeFor(roles: readonly StaffRole[], hasBusiness: boolean) {
  if (hasBusiness) return '/dashboard'
  if (roles.includes('admin')) return '/admin'
  if (roles.includes('clinician')) return '/patient-diseases'
  return '/create-account'
}

/** How a sign-in ends: who signed in through what, where they were going, and headers to send along. */
export interface SignInEnd {
  identity: SessionIdentity
  redirectTo?: string | null
  headers?: Headers
}

/**
 * Starts the session of `user` (as the `linked` business, if any) and redirects with a welcome: to `redirectTo` when
 * the user is someone (a business or staff), else to their home; someone new goes on to registration.
 */
export async function finishSignIn(
  request: Request,
  user: User,
  linked: Business | null,
  { identity, redirectTo, headers }: SignInEnd,
  welcome?: string,
): Promise<Response> {
  const sessionUser = toSessionUser(user)
  const sessionHeaders = await startSession(request, {
    user: sessionUser,
    business: linked ? toSessionCopy(linked) : null,
    identity,
  })
  const home = homeFor(sessionUser.roles, Boolean(linked))
  const target = linked || sessionUser.roles.length ? safeRedirect(redirectTo, home) : home
  const description =
    welcome ??
    (target === '/create-account'
      ? `Welcome, ${sessionUser.name}! Create your business account to get started.`
      : `Welcome, ${linked?.businessName ?? sessionUser.name}!`)
  return redirectWithToast(
    target,
    { title: 'Signed In', description },
    { headers: combineHeaders(headers, sessionHeaders) },
  )
}

/**
 * What an identity sign-in decided (app/services/accounts/identity-sign-in.server.ts): signed in as `user`, acting
 * for `business` if any, or the business whose password must be given first.
 */
export type IdentitySignIn =
  | { user: User; business: Business | null; passwordFor?: never }
  | { passwordFor: { profile: IdentityProfile; businessID: number }; user?: never; business?: never }

/**
 * The answer to an identity sign-in: signed in (see {@link finishSignIn}), on to the business password, or, when the
 * sign-in refused (an AppError), back to /login with its message.
 */
export async function answerIdentitySignIn(
  request: Request,
  signIn: Promise<IdentitySignIn>,
  end: SignInEnd,
): Promise<Response> {
  let outcome: IdentitySignIn
  try {
    outcome = await signIn
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return signInFailure(error.message, error.title ?? SIGN_IN_FAILED_TITLE, end.headers)
  }
  if (outcome.passwordFor) {
    const pending = { ...outcome.passwordFor, identity: end.identity, redirectTo: end.redirectTo ?? null }
    return askForBusinessPassword(pending, end.headers)
  }
  return finishSignIn(request, outcome.user, outcome.business, end)
}
