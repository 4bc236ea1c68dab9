/**
 * The common end of both sign-ins through /api/login (the identity provider's, and the development sign-in that stands
 * in for it): the `users` row, the business it acts for, and the session.
 */
import { findBusinessByEmail, getBusinessById } from '#app/models/accounts/business.server.ts'
import {
  findUserByEmail,
  isStaffRole,
  linkUserToBusiness,
  upsertIdentityUser,
  type IdentityProfile,
} from '#app/models/accounts/user.server.ts'
import { askForBusinessPassword } from './password-linking.server.ts'
import {
  finishSignIn,
  SIGN_IN_FAILED_TITLE,
  signInFailure,
  type SignInEnd,
} from './sign-in-redirects.server.ts'

export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Your identity provider has not verified your email address, so it cannot be used to sign in here.'

interface SignInOptions extends SignInEnd {
  /**
   * The provider vouches that the person owns the email (`email_verified === true`). Only then may the email stand
   * for the business or the staff account that has it.
   */
  emailVerified: boolean
}

/**
 * Creates or updates the `users` row, signs in as the business linked to the user (or, failing that, the one with the
 * same email, which then gets linked), and starts a new session. Someone who is neither staff nor linked to a
 * business goes on to registration.
 *
 * An email the provider has not verified proves nothing: if a business has it (or is linked to its user), the
 * business password is asked for first (`/api/login/link`); a staff account with it is refused.
 */
export async function signInIdentity(
  request: Request,
  profile: IdentityProfile,
  { identity, emailVerified, redirectTo, headers }: SignInOptions,
): Promise<Response> {
  if (!emailVerified) {
    const existing = await findUserByEmail(profile.email)
    const business =
      (existing?.businessID ? await getBusinessById(existing.businessID) : null) ??
      (await findBusinessByEmail(profile.email))
    if (business) {
      return askForBusinessPassword(
        { profile, identity, businessID: business.businessID, redirectTo: redirectTo ?? null },
        headers,
      )
    }
    if (existing?.roles.some(isStaffRole))
      return signInFailure(EMAIL_NOT_VERIFIED_MESSAGE, SIGN_IN_FAILED_TITLE, headers)
  }
  const user = await upsertIdentityUser(profile)
  let linked = user.businessID ? await getBusinessById(user.businessID) : null
  if (!linked && emailVerified) {
    linked = await findBusinessByEmail(user.email)
    if (linked) await linkUserToBusiness(user.id, linked.businessID)
  }
  return finishSignIn(request, user, linked, { identity, redirectTo, headers })
}
