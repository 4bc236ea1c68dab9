/**
 * Sign-in through the external OpenID Connect provider behind /api/login (authorization code + PKCE + state, via
 * remix-auth-oauth2), and the development sign-in that stands in for it when none is configured.
 */
import { createCookie, redirect } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { OAuth2Strategy } from 'remix-auth-oauth2'
import { z } from 'zod'
import type { StaffRole } from '#app/constants.ts'
import { findBusinessByEmail, getBusinessById, toSessionCopy } from '#app/models/business.server.ts'
import {
  findUserByEmail,
  isStaffRole,
  linkUserToBusiness,
  toSessionUser,
  upsertIdentityUser,
  type IdentityProfile,
} from '#app/models/user.server.ts'
import type { Business, User } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { startSession, type SessionIdentity } from './auth.server.ts'
import { signInBusiness } from './business-auth.server.ts'
import { getEnv, type Env } from '../platform/env.server.ts'
import { combineHeaders, safeRedirect } from '../http/http.server.ts'
import { clientIp } from '../platform/rate-limit.server.ts'
import { redirectWithToast } from '../http/toast.server.ts'

export const CALLBACK_PATH = '/api/login/callback'
const STRATEGY = 'oidc'
/** remix-auth-oauth2 stores state and PKCE verifier in cookies named `es_oidc:<random>`. */
const STATE_COOKIE = 'es_oidc'
const SCOPES = ['openid', 'email', 'profile']

const metadataSchema = z.object({
  issuer: z.string().optional(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url().optional(),
  end_session_endpoint: z.url().optional(),
  revocation_endpoint: z.url().optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
})
export type ProviderMetadata = z.infer<typeof metadataSchema>

const discoveries = new Map<string, Promise<ProviderMetadata>>()

/** `${issuer}/.well-known/openid-configuration`, fetched once per issuer (again after a failure). */
export function discoverProvider(issuer: string): Promise<ProviderMetadata> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
  let pending = discoveries.get(url)
  if (!pending) {
    pending = (async () => {
      const response = await fetch(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      })
      if (!response.ok) throw new Error(`Discovery at ${url} answered ${response.status}`)
      return metadataSchema.parse(await response.json())
    })()
    discoveries.set(url, pending)
    pending.catch(() => discoveries.delete(url))
  }
  return pending
}

/** The origin the provider sends users back to: PUBLIC_URL when set (behind a proxy), else the request's own. */
export function appOrigin(request: Request, env: Env = getEnv()) {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : new URL(request.url).origin
}

/** A provider user as the verify step hands it over. */
export interface ProviderIdentity {
  profile: IdentityProfile
  /** `email_verified` as the provider sent it (undefined when it sent none). */
  emailVerified: boolean | undefined
  idToken?: string
}

const claimsSchema = z.object({
  sub: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
})

function decodeJwtPayload(token: string): unknown {
  const payload = token.split('.')[1]
  if (!payload) return {}
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return {}
  }
}

async function fetchClaims(metadata: ProviderMetadata, accessToken: string, idToken: string | undefined) {
  // The ID token came straight from the token endpoint over the back channel, so its claims can be read as they are.
  const fromIdToken = claimsSchema.safeParse(idToken ? decodeJwtPayload(idToken) : {})
  if (!metadata.userinfo_endpoint) return fromIdToken.success ? fromIdToken.data : {}
  const response = await fetch(metadata.userinfo_endpoint, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  })
  if (!response.ok) throw new Error(`The userinfo endpoint answered ${response.status}`)
  const claims = claimsSchema.parse(await response.json())
  if (fromIdToken.success && fromIdToken.data.sub && claims.sub && fromIdToken.data.sub !== claims.sub) {
    throw new Error('The userinfo subject does not match the ID token')
  }
  return claims
}

async function oidcAuthenticator(request: Request) {
  const env = getEnv()
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) throw new Error('No identity provider is configured')
  const metadata = await discoverProvider(env.OIDC_ISSUER)
  const strategy = new OAuth2Strategy<ProviderIdentity>(
    {
      cookie: {
        name: STATE_COOKIE,
        path: '/api/login',
        httpOnly: true,
        sameSite: 'Lax',
        ...(env.isProduction ? { secure: true as const } : {}),
      },
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET ?? null,
      authorizationEndpoint: metadata.authorization_endpoint,
      tokenEndpoint: metadata.token_endpoint,
      tokenRevocationEndpoint: metadata.revocation_endpoint,
      redirectURI: `${appOrigin(request, env)}${CALLBACK_PATH}`,
      scopes: SCOPES,
    },
    async ({ tokens }) => {
      const data = tokens.data as { id_token?: unknown }
      const idToken = typeof data.id_token === 'string' ? data.id_token : undefined
      const claims = await fetchClaims(metadata, tokens.accessToken(), idToken)
      if (!claims.email) throw new Error('The identity provider did not share an email address')
      return {
        profile: {
          email: claims.email,
          firstName: claims.given_name,
          lastName: claims.family_name,
          fullName: claims.name,
          profileImageUrl: claims.picture,
        },
        emailVerified: claims.email_verified,
        idToken,
      }
    },
  )
  // Built per request: the redirect URI depends on the request, and tests change the provider between cases.
  return new Authenticator<ProviderIdentity>().use(strategy, STRATEGY)
}

/** Where to come back to after the provider, kept across the round trip in a short-lived signed cookie. */
function returnToCookie(env: Env = getEnv()) {
  return loginRoundTripCookie('es_login_next', env)
}

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

/** GET /api/login with a provider configured: the redirect to its authorization endpoint (state and PKCE cookie set). */
export async function beginProviderSignIn(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const authenticator = await oidcAuthenticator(request)
  // Without query parameters: a `state` in this URL must not be taken for a callback.
  const start = new Request(new URL(url.pathname, url.origin), { headers: request.headers })
  try {
    await authenticator.authenticate(STRATEGY, start)
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown
    const redirectTo = url.searchParams.get('redirectTo')
    const cookie = returnToCookie()
    thrown.headers.append(
      'Set-Cookie',
      redirectTo
        ? await cookie.serialize(safeRedirect(redirectTo, ''))
        : await cookie.serialize('', { maxAge: 0 }),
    )
    return thrown
  }
  throw new Error('The sign-in flow did not redirect to the identity provider')
}

/** Expires every state cookie the round trip left behind. */
function clearRoundTripCookies(request: Request) {
  const headers = new Headers()
  const names = (request.headers.get('Cookie') ?? '')
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter((name) => name.startsWith(STATE_COOKIE))
  for (const name of new Set(names)) {
    headers.append('Set-Cookie', `${name}=; Path=/api/login; Max-Age=0; HttpOnly; SameSite=Lax`)
  }
  headers.append('Set-Cookie', `es_login_next=; Path=/api/login; Max-Age=0; HttpOnly; SameSite=Lax`)
  return headers
}

export const SIGN_IN_CANCELLED_TITLE = 'Sign-in Cancelled'
export const SIGN_IN_CANCELLED_MESSAGE =
  'You cancelled signing in with the identity provider, so you are not signed in.'
export const SIGN_IN_FAILED_TITLE = 'Sign-in Failed'
export const SIGN_IN_FAILED_MESSAGE = 'Signing in with the identity provider did not work. Please try again.'
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Your identity provider has not verified your email address, so it cannot be used to sign in here.'

function signInFailure(description: string, title = SIGN_IN_FAILED_TITLE, headers?: Headers) {
  return redirectWithToast('/login', { title, description, variant: 'destructive' }, { headers })
}

/** GET /api/login/callback: checks state, exchanges the code (PKCE), reads the profile and signs in. */
export async function completeProviderSignIn(request: Request): Promise<Response> {
  const env = getEnv()
  const cleared = clearRoundTripCookies(request)
  if (!env.oidcEnabled) return signInFailure(SIGN_IN_FAILED_MESSAGE, SIGN_IN_FAILED_TITLE, cleared)
  const url = new URL(request.url)
  // Only fixed texts are shown: an error description in the URL is whatever the link's author wrote.
  const error = url.searchParams.get('error')
  if (error) {
    return error === 'access_denied'
      ? signInFailure(SIGN_IN_CANCELLED_MESSAGE, SIGN_IN_CANCELLED_TITLE, cleared)
      : signInFailure(SIGN_IN_FAILED_MESSAGE, SIGN_IN_FAILED_TITLE, cleared)
  }
  let identity: ProviderIdentity
  try {
    identity = await (await oidcAuthenticator(request)).authenticate(STRATEGY, request)
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown
    console.warn('Identity provider sign-in rejected:', thrown instanceof Error ? thrown.message : thrown)
    return signInFailure(SIGN_IN_FAILED_MESSAGE, SIGN_IN_FAILED_TITLE, cleared)
  }
  const returnTo = await returnToCookie(env).parse(request.headers.get('Cookie'))
  return signInIdentity(request, identity.profile, {
    identity: { provider: 'oidc', idToken: identity.idToken },
    emailVerified: identity.emailVerified === true,
    redirectTo: typeof returnTo === 'string' ? returnTo : null,
    headers: cleared,
  })
}

function homeFor(roles: readonly StaffRole[], hasBusiness: boolean) {
  if (hasBusiness) return '/dashboard'
  if (roles.includes('admin')) return '/admin'
  if (roles.includes('clinician')) return '/patient-diseases'
  return '/create-account'
}

interface SignInOptions {
  identity: SessionIdentity
  /**
   * The provider vouches that the person owns the email (`email_verified === true`). Only then may the email stand
   * for the business or the staff account that has it.
   */
  emailVerified: boolean
  redirectTo?: string | null
  headers?: Headers
}

/**
 * The common end of both sign-ins through /api/login: creates or updates the `users` row, signs in as the business
 * linked to the user (or, failing that, the one with the same email, which then gets linked), and starts a new
 * session. Someone who is neither staff nor linked to a business goes on to registration.
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
      const pending: PendingLink = {
        profile,
        identity,
        businessID: business.businessID,
        redirectTo: redirectTo ?? null,
      }
      return redirect(LINK_PATH, {
        headers: combineHeaders(headers, { 'Set-Cookie': await pendingLinkCookie().serialize(pending) }),
      })
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

async function finishSignIn(
  request: Request,
  user: User,
  linked: Business | null,
  { identity, redirectTo, headers }: Omit<SignInOptions, 'emailVerified'>,
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
type PendingLink = z.infer<typeof pendingLinkSchema>

function pendingLinkCookie(env: Env = getEnv()) {
  return loginRoundTripCookie('es_link', env)
}

/** The sign-in waiting for the business password, with that business; null when there is none (or it expired). */
export async function readPendingLink(request: Request) {
  const parsed = pendingLinkSchema.safeParse(await pendingLinkCookie().parse(request.headers.get('Cookie')))
  if (!parsed.success) return null
  const business = await getBusinessById(parsed.data.businessID)
  return business ? { pending: parsed.data, business } : null
}

/** Why the password did not link: shown on the form again. */
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
      throw new AppError(LINK_EXPIRED_MESSAGE, error.status, { cause: error })
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

/**
 * Where logout goes after the session is gone: the provider's end-session endpoint when the user signed in there
 * (and the provider has one), otherwise the app's home.
 */
export async function logoutDestination(request: Request, identity: SessionIdentity | null): Promise<string> {
  const env = getEnv()
  if (identity?.provider !== 'oidc' || !env.oidcEnabled || !env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) return '/'
  try {
    const metadata = await discoverProvider(env.OIDC_ISSUER)
    if (!metadata.end_session_endpoint) return '/'
    const url = new URL(metadata.end_session_endpoint)
    url.searchParams.set('post_logout_redirect_uri', `${appOrigin(request, env)}/`)
    url.searchParams.set('client_id', env.OIDC_CLIENT_ID)
    if (identity.idToken) url.searchParams.set('id_token_hint', identity.idToken)
    return url.toString()
  } catch (error) {
    console.warn(
      'Identity provider discovery failed at logout:',
      error instanceof Error ? error.message : error,
    )
    return '/'
  }
}

/** /api/login in development without a provider: an email is all it takes (never in production). */
export function developmentSignInAvailable(env: Env = getEnv()) {
  return !env.oidcEnabled && !env.isProduction
}
