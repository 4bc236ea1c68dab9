import { redirect } from '@remix-run/node'
import type { z } from 'zod'
import type { StaffRole } from '#app/constants.ts'
import type { BusinessSessionCopy } from '#app/models/accounts/business.server.ts'
import { currentRoles, type SessionUser } from '#app/models/accounts/user.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'
import { errorResponse } from './http.server.ts'
import { readJsonBody } from './request-body.server.ts'
import { getSession, sessionStorage } from './session.server.ts'

// The session's shapes are the models'; callers of this module get them from here with the functions returning them.
export type { BusinessSessionCopy, SessionUser }

/** How a `user` entry was signed in; kept so logout can end the provider's session too. */
export interface SessionIdentity {
  provider: 'oidc' | 'development'
  /** The provider's ID token, sent back as `id_token_hint` at logout. */
  idToken?: string
}

export const SESSION_BUSINESS_KEY = 'business'
export const SESSION_USER_KEY = 'user'
export const SESSION_IDENTITY_KEY = 'identity'

export interface SessionValues {
  business?: BusinessSessionCopy | null
  user?: SessionUser | null
  identity?: SessionIdentity | null
}

/**
 * Signs in: the request's session (if any) is deleted and a new one, with a new id, holds `values`, so an id planted
 * in the browser before sign-in never becomes a signed-in session. Returns the headers that set the new cookie.
 */
export async function startSession(request: Request, values: SessionValues): Promise<Headers> {
  const previous = await getSession(request)
  if (previous.id) await sessionStorage.destroySession(previous)
  const session = await sessionStorage.getSession()
  if (values.business) session.set(SESSION_BUSINESS_KEY, values.business)
  if (values.user) session.set(SESSION_USER_KEY, values.user)
  if (values.identity) session.set(SESSION_IDENTITY_KEY, values.identity)
  return new Headers({ 'Set-Cookie': await sessionStorage.commitSession(session) })
}

/**
 * After a registration: someone signed in through the identity provider (`user`) gets the new business in their
 * session, under a new id (see {@link startSession}); anyone else stays as they are (no headers).
 */
export async function addBusinessToSession(
  request: Request,
  user: SessionUser | null,
  business: BusinessSessionCopy,
): Promise<Headers | undefined> {
  if (!user) return undefined
  return startSession(request, { user, identity: await getSessionIdentity(request), business })
}

/** Signs out: deletes the session row (an old copy of the cookie then reads as signed out) and clears the cookie. */
export async function endSession(request: Request) {
  const session = await getSession(request)
  const identity = (session.get(SESSION_IDENTITY_KEY) as SessionIdentity | undefined) ?? null
  const user = (session.get(SESSION_USER_KEY) as SessionUser | undefined) ?? null
  const headers = new Headers({ 'Set-Cookie': await sessionStorage.destroySession(session) })
  return { headers, identity: user ? identity : null, hadSession: Boolean(session.id) }
}

function loginRedirect(request: Request, loginPath: string) {
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  const params = new URLSearchParams({ redirectTo })
  return redirect(`${loginPath}?${params}`)
}

export async function getBusiness(request: Request): Promise<BusinessSessionCopy | null> {
  const session = await getSession(request)
  const business = session.get(SESSION_BUSINESS_KEY) as BusinessSessionCopy | undefined
  return business && Number.isInteger(business.businessID) ? business : null
}

export async function getUser(request: Request): Promise<SessionUser | null> {
  const session = await getSession(request)
  const user = session.get(SESSION_USER_KEY) as SessionUser | undefined
  return user?.id ? user : null
}

export async function getSessionIdentity(request: Request): Promise<SessionIdentity | null> {
  const session = await getSession(request)
  return (session.get(SESSION_IDENTITY_KEY) as SessionIdentity | undefined) ?? null
}

/** The signed-in advertiser, or a redirect to /login that comes back here. */
export async function requireBusiness(request: Request): Promise<BusinessSessionCopy> {
  const business = await getBusiness(request)
  if (!business) throw loginRedirect(request, '/login')
  return business
}

/** A signed-in identity-provider user (staff sign in that way), or a redirect to /api/login. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request)
  if (!user) throw loginRedirect(request, '/api/login')
  return user
}

/**
 * A signed-in user holding `role`; anyone else signed in gets 403. Roles are read from the database, not from the
 * session's copy, so a revoked role stops working at once.
 */
export async function requireRole(request: Request, role: StaffRole): Promise<SessionUser> {
  const user = await getUser(request)
  if (!user) {
    if (await getBusiness(request)) throw forbidden()
    throw loginRedirect(request, '/api/login')
  }
  const roles = await currentRoles(user.id)
  if (roles === null) throw loginRedirect(request, '/api/login')
  if (!roles.includes(role)) throw forbidden()
  return { ...user, roles }
}

/** Whether the signed-in user holds `role` now (read from the database, like {@link requireRole}); never throws. */
export async function hasRole(request: Request, role: StaffRole): Promise<boolean> {
  const user = await getUser(request)
  if (!user) return false
  return (await currentRoles(user.id))?.includes(role) ?? false
}

/** The 403 a guard throws, answered like every refusal (a page's error boundary shows its message). */
export function forbidden(message = 'You do not have access to this page.') {
  return errorResponse(new AppError(message, 'forbidden'))
}

/** A 403 AppError unless the id in a URL or body is the signed-in business's own. */
export function assertOwnBusiness(business: BusinessSessionCopy, businessID: unknown) {
  if (Number(businessID) !== business.businessID)
    throw new AppError('That business is not yours.', 'forbidden')
}

/**
 * The skeleton of an advertiser's JSON call: POST only, signed in, a body matching `schema`, and a `businessID`
 * that is the session's own. Throws an AppError (405/401/400/403/413/415) otherwise.
 */
export async function requireOwnBusinessJson<S extends z.ZodType<{ businessID: number }>>(
  request: Request,
  schema: S,
  invalidMessage: string,
) {
  if (request.method !== 'POST') throw methodNotAllowed('POST')
  const business = await getBusiness(request)
  if (!business) throw new AppError('Unauthorized', 'unauthenticated')
  const body = await readJsonBody(request, schema, { invalidMessage })
  assertOwnBusiness(business, body.businessID)
  return { business, body }
}
