/**
 * The common end of both sign-ins through /api/login (the identity provider's, and the development sign-in that stands
 * in for it): the `users` row and the business it acts for.
 */
import { findBusinessByEmail, getBusinessById } from '#app/models/accounts/business.server.ts'
import {
  findUserByEmail,
  isStaffRole,
  linkUserToBusiness,
  upsertIdentityUser,
  type IdentityProfile,
} from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { IdentitySignIn } from '../http/sign-in-redirects.server.ts'

export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Your identity provider has not verified your email address, so it cannot be used to sign in here.'

/**
 * Creates or updates the `users` row and finds the business it signs in as: the one linked to the user, or failing
 * that the one with the same email, which then gets linked. Someone who is neither staff nor linked to a business has
 * none (they go on to registration).
 *
 * `emailVerified`: the provider vouches that the person owns the email. An email it has not verified proves nothing:
 * if a business has it (or is linked to its user), the answer is that business's password, asked for first; a staff
 * account with it is refused (a forbidden AppError).
 */
export async function signInIdentity(
  profile: IdentityProfile,
  { emailVerified }: { emailVerified: boolean },
): Promise<IdentitySignIn> {
  if (!emailVerified) {
    const existing = await findUserByEmail(profile.email)
    const business =
      (existing?.businessID ? await getBusinessById(existing.businessID) : null) ??
      (await findBusinessByEmail(profile.email))
    if (business) return { passwordFor: { profile, businessID: business.businessID } }
    if (existing?.roles.some(isStaffRole)) throw new AppError(EMAIL_NOT_VERIFIED_MESSAGE, 'forbidden')
  }
  const user = await upsertIdentityUser(profile)
  let linked = user.businessID ? await getBusinessById(user.businessID) : null
  if (!linked && emailVerified) {
    linked = await findBusinessByEmail(user.email)
    if (linked) await linkUserToBusiness(user.id, linked.businessID)
  }
  return { user, business: linked }
}
