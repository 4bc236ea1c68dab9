import type { StaffRole } from '#app/constants.ts'
import type { BusinessSessionCopy, SessionUser } from '#app/services/http/auth.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import type { Business, User } from '#db/schema.ts'

export function businessSessionCopy(b: Business): BusinessSessionCopy {
  return {
    businessID: b.businessID,
    businessName: b.businessName,
    businessPhone: b.businessPhone,
    businessEmail: b.businessEmail,
    businessAddress: b.businessAddress,
    businessCity: b.businessCity,
    businessState: b.businessState,
    businessZip: b.businessZip,
    businessContact: b.businessContact,
  }
}

export function sessionUser(u: User): SessionUser {
  return { id: u.id, email: u.email, name: u.fullName, roles: u.roles as StaffRole[] }
}

/** A real session row and its signed cookie, as a signed-in browser would send it. */
export async function sessionCookieFor({ business, user }: { business?: Business; user?: User }) {
  const session = await sessionStorage.getSession()
  if (business) session.set('business', businessSessionCopy(business))
  if (user) session.set('user', sessionUser(user))
  const setCookie = await sessionStorage.commitSession(session)
  return setCookie.split(';')[0]!
}
