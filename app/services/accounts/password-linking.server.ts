/**
 * Linking a provider sign-in to a business by its password: when the provider has not verified the email a business
 * has, the sign-in waits (a few minutes) at /api/login/link for the business password.
 */
import { getBusinessById } from '#app/models/accounts/business.server.ts'
import type { PendingLink } from '#app/models/accounts/identity-sign-in-schema.ts'
import { linkUserToBusiness, upsertIdentityUser } from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { Business, User } from '#db/schema.ts'
import { signInBusiness } from './business-auth.server.ts'

export const LINK_EXPIRED_MESSAGE = 'Linking took too long or was already done. Please sign in again.'

export function linkedWelcomeMessage(businessName: string) {
  return `Your sign-in is now linked to ${businessName}. Welcome, ${businessName}!`
}

/** The business a pending sign-in waits for; null when there is none (expired, forged) or it is gone. */
export async function businessAwaitingLink(pending: PendingLink | null): Promise<Business | null> {
  return pending ? getBusinessById(pending.businessID) : null
}

/**
 * The business password (checked, and rate-limited, exactly as at /login, by the client's address `ip`) links the
 * provider sign-in to the business: the user, now acting for it. A refused password is the sign-in's AppError.
 */
export async function linkWithBusinessPassword(
  pending: PendingLink,
  business: Business,
  password: string,
  { ip }: { ip: string },
): Promise<User> {
  try {
    await signInBusiness({ email: business.businessEmail, password }, { ip })
  } catch (error) {
    // The stored email failing the sign-in's checks means the link is no longer usable.
    if (error instanceof AppError && error.fieldErrors.email) {
      throw new AppError(LINK_EXPIRED_MESSAGE, error.kind, { cause: error })
    }
    throw error
  }
  const user = await upsertIdentityUser(pending.profile)
  await linkUserToBusiness(user.id, business.businessID)
  return { ...user, businessID: business.businessID }
}
