/**
 * Sign-in through the external OpenID Connect provider behind /api/login (authorization code + PKCE + state, via
 * remix-auth-oauth2): discovering the provider, the round trip there and back, and the way out through its
 * end-session endpoint at logout; and whether the development sign-in stands in for it when none is configured.
 */
import { Authenticator } from 'remix-auth'
import { OAuth2Strategy } from 'remix-auth-oauth2'
import { z } from 'zod'
import type { IdentityProfile } from '#app/models/accounts/user.server.ts'
import type { SessionIdentity } from './auth.server.ts'
import { signInIdentity } from './identity-sign-in.server.ts'
import {
  RETURN_TO_COOKIE,
  returnToCookie,
  SIGN_IN_CANCELLED_MESSAGE,
  SIGN_IN_CANCELLED_TITLE,
  SIGN_IN_FAILED_MESSAGE,
  SIGN_IN_FAILED_TITLE,
  signInFailure,
} from './sign-in-redirects.server.ts'
import { getEnv, type Env } from '../platform/env.server.ts'
import { safeRedirect } from '../http/http.server.ts'

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
  headers.append('Set-Cookie', `${RETURN_TO_COOKIE}=; Path=/api/login; Max-Age=0; HttpOnly; SameSite=Lax`)
  return headers
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
