import { redirect } from '@remix-run/node'
import type { StaffRole } from '#app/constants.ts'
import { getSession } from './session.server.ts'

/** The session copy of the business (spec §3); the browser never supplies the business id. */
export interface BusinessSessionCopy {
  businessID: number
  businessName: string
  businessPhone: string
  businessEmail: string
  businessAddress: string
  businessCity: string
  businessState: string
  businessZip: string
  businessContact: string
}

/** A `users` row as the session keeps it. */
export interface SessionUser {
  id: string
  email: string
  name: string
  roles: StaffRole[]
}

export const SESSION_BUSINESS_KEY = 'business'
export const SESSION_USER_KEY = 'user'

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

/** A signed-in user holding `role`; anyone else signed in gets 403. */
export async function requireRole(request: Request, role: StaffRole): Promise<SessionUser> {
  const user = await getUser(request)
  if (!user) {
    if (await getBusiness(request)) throw forbidden()
    throw loginRedirect(request, '/api/login')
  }
  if (!user.roles.includes(role)) throw forbidden()
  return user
}

export function forbidden(message = 'You do not have access to this page.') {
  return Response.json({ message }, { status: 403 })
}

/** 403 unless the id in a URL or body is the signed-in business's own. */
export function assertOwnBusiness(business: BusinessSessionCopy, businessID: unknown) {
  if (Number(businessID) !== business.businessID) throw forbidden('That business is not yours.')
}
