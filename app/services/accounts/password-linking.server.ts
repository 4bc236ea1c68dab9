/**
 * Linking a provider sign-in to a business by its password: when the provider has not verified the email a business
 * has, the sign-in waits (a few minutes, in a signed cookie) at /api/login/link for the business password.
 */
import { redirect } from '@remix-run/node'
import { z } from 'zod'
import { getBusinessById } from '#app/models/accounts/business.server.ts'
import { linkUserToBusiness, upsertIdentityUser } from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { signInBusiness } from './business-auth.server.ts'
import {
  finishSignIn,
  loginRoundTripCookie,
  SIGN_IN_FAILED_TITLE,
  signInFailure,
} from './sign-in-redirects.server.ts'
import { getEnv, type Env } from '../platform/env.server.ts'
import { combineHeaders } from '../http/http.server.ts'
import { clientIp } from '../platform/rate-limit.server.ts'

export const LINK_PATH = '/api/login/link'
export const LINK_EXPIRED_MESSAGE = 'Linking took too long or was already done. Please sign in again.'

/** A provider sign-in waiting for the business password, kept for a few minutes in a signed cookie. */
const pendingLinkSchema = z.object({
  profile: z.object({
    email: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    fullName: z.string().optional(),
    profileImageUrl: z.string().optional(),
  }),
  identity: z.object({ provider: z.enum(['oidc', 'development']), idToken: z.string().optional() }),
  businessID: z.number().int(),
  redirectTo: z.string().nullable(),
})
export type PendingLink = z.infer<typeof pendingLinkSchema>

function pendingLinkCookie(env: Env = getEnv()) {
  return loginRoundTripCookie('es_link', env)
}

/** The sign-in set aside and the redirect to the form that asks for the business password. */
export async function askForBusinessPassword(pending: PendingLink, headers?: Headers): Promise<Response> {
  return redirect(LINK_PATH, {
    headers: combineHeaders(headers, { 'Set-Cookie': await pendingLinkCookie().serialize(pending) }),
  })
}

/** The sign-in waiting for the business password, with that business; null when there is none (or it expired). */
export async function readPendingLink(request: Request) {
  const parsed = pendingLinkSchema.safeParse(await pendingLinkCookie().parse(request.headers.get('Cookie')))
  if (!parsed.success) return null
  const business = await getBusinessById(parsed.data.businessID)
  return business ? { pending: parsed.data, business } : null
}

/**
 * POST /api/login/link: the business password (checked, and rate-limited, exactly as at /login) links the provider
 * sign-in to the business and signs in as both. A refused password is the sign-in's AppError (400/401/429/503).
 */
export async function completePasswordLink(request: Request, password: unknown): Promise<Response> {
  const found = await readPendingLink(request)
  if (!found) return signInFailure(LINK_EXPIRED_MESSAGE, SIGN_IN_FAILED_TITLE)
  const { pending, business } = found
  try {
    await signInBusiness({ email: business.businessEmail, password }, { ip: clientIp(request) })
  } catch (error) {
    // The stored email failing the sign-in's checks means the link is no longer usable.
    if (error instanceof AppError && error.fieldErrors.email) {
      throw new AppError(LINK_EXPIRED_MESSAGE, error.kind, { cause: error })
    }
    throw error
  }
  const user = await upsertIdentityUser(pending.profile)
  await linkUserToBusiness(user.id, business.businessID)
  const cleared = new Headers({ 'Set-Cookie': await pendingLinkCookie().serialize('', { maxAge: 0 }) })
  return finishSignIn(
    request,
    { ...user, businessID: business.businessID },
    business,
    { identity: pending.identity, redirectTo: pending.redirectTo, headers: cleared },
    `Your sign-in is now linked to ${business.businessName}. Welcome, ${business.businessName}!`,
  )
}
