/**
 * Sign-in through the external OpenID Connect provider behind /api/login: discovering the provider, reading who its
 * tokens stand for, and the way out through its end-session endpoint at logout; and whether the development sign-in
 * stands in for it when none is configured. The round trip's redirects and cookies are
 * app/services/http/oidc-round-trip.server.ts.
 */
import { z } from 'zod'
import type { IdentityProfile } from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv, type Env } from '../platform/env.server.ts'

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

/** The configured provider: this app's client at it and its discovery document. */
export interface ConfiguredProvider {
  clientId: string
  clientSecret: string | null
  metadata: ProviderMetadata
}

/** A failure here (none configured, discovery failing) is the configuration's, not a refusal of the user. */
export async function configuredProvider(env: Env = getEnv()): Promise<ConfiguredProvider> {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) throw new Error('No identity provider is configured')
  return {
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET ?? null,
    metadata: await discoverProvider(env.OIDC_ISSUER),
  }
}

/** Whom the provider's tokens stand for. */
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
  if (!response.ok) {
    throw new AppError(`The userinfo endpoint answered ${response.status}`, 'upstream_failed')
  }
  const claims = claimsSchema.parse(await response.json())
  if (fromIdToken.success && fromIdToken.data.sub && claims.sub && fromIdToken.data.sub !== claims.sub) {
    throw new AppError('The userinfo subject does not match the ID token', 'upstream_failed')
  }
  return claims
}

/** The profile the provider shares for the tokens of a sign-in (its userinfo endpoint, else the ID token's claims). */
export async function identityFromTokens(
  { accessToken, idToken }: { accessToken: string; idToken?: string },
  { metadata }: { metadata: ProviderMetadata },
): Promise<ProviderIdentity> {
  const claims = await fetchClaims(metadata, accessToken, idToken)
  if (!claims.email) {
    throw new AppError('The identity provider did not share an email address', 'upstream_failed')
  }
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
}

/**
 * Where logout goes after the session is gone: the provider's end-session endpoint when the user signed in there
 * (and the provider has one), coming back to `origin`; otherwise the app's home.
 */
export async function logoutDestination(
  identity: { provider: string; idToken?: string } | null,
  origin: string,
): Promise<string> {
  const env = getEnv()
  if (identity?.provider !== 'oidc' || !env.oidcEnabled || !env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) return '/'
  try {
    const metadata = await discoverProvider(env.OIDC_ISSUER)
    if (!metadata.end_session_endpoint) return '/'
    const url = new URL(metadata.end_session_endpoint)
    url.searchParams.set('post_logout_redirect_uri', `${origin}/`)
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
