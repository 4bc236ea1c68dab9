/**
 * The round trip of a sign-in through the OpenID Connect provider behind /api/login (authorization code + PKCE +
 * state, via remix-auth-oauth2): the redirect there with its state cookie, and the callback's check of the state and
 * exchange of the code for tokens. Whom the tokens stand for is app/services/accounts/oidc.server.ts's part.
 */
import { Authenticator } from 'remix-auth'
import { OAuth2Strategy } from 'remix-auth-oauth2'
import { getEnv } from '../platform/env.server.ts'
import { safeRedirect } from './http.server.ts'
import {
  RETURN_TO_COOKIE,
  returnToCookie,
  SIGN_IN_CANCELLED_MESSAGE,
  SIGN_IN_CANCELLED_TITLE,
  SIGN_IN_FAILED_MESSAGE,
  SIGN_IN_FAILED_TITLE,
  signInFailure,
} from './sign-in-redirects.server.ts'
import { siteOrigin } from './site-url.server.ts'

const CALLBACK_PATH = '/api/login/callback'
const STRATEGY = 'oidc'
/** remix-auth-oauth2 stores state and PKCE verifier in cookies named `es_oidc:<random>`. */
const STATE_COOKIE = 'es_oidc'
const SCOPES = ['openid', 'email', 'profile']

/** The provider as the round trip needs it: this app's client and the endpoints of its discovery document. */
export interface ProviderClient {
  clientId: string
  clientSecret: string | null
  metadata: { authorization_endpoint: string; token_endpoint: string; revocation_endpoint?: string }
}

/** What the provider's token endpoint gave for the code. */
export interface ProviderTokens {
  accessToken: string
  idToken?: string
}

function providerAuthenticator<T, C extends ProviderClient>(
  request: Request,
  client: C,
  verify: (tokens: ProviderTokens, client: C) => Promise<T>,
) {
  const env = getEnv()
  const strategy = new OAuth2Strategy<T>(
    {
      cookie: {
        name: STATE_COOKIE,
        path: '/api/login',
        httpOnly: true,
        sameSite: 'Lax',
        ...(env.isProduction ? { secure: true as const } : {}),
      },
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      authorizationEndpoint: client.metadata.authorization_endpoint,
      tokenEndpoint: client.metadata.token_endpoint,
      tokenRevocationEndpoint: client.metadata.revocation_endpoint,
      redirectURI: `${siteOrigin(request)}${CALLBACK_PATH}`,
      scopes: SCOPES,
    },
    async ({ tokens }) => {
      const data = tokens.data as { id_token?: unknown }
      const idToken = typeof data.id_token === 'string' ? data.id_token : undefined
      return verify({ accessToken: tokens.accessToken(), idToken }, client)
    },
  )
  // Built per request: the redirect URI depends on the request, and tests change the provider between cases.
  return new Authenticator<T>().use(strategy, STRATEGY)
}

/** GET /api/login with a provider configured: the redirect to its authorization endpoint (state and PKCE cookie set). */
export async function beginProviderSignIn(request: Request, client: ProviderClient): Promise<Response> {
  const url = new URL(request.url)
  const authenticator = providerAuthenticator(request, client, async () => null)
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

/** The callback's end: who the provider vouched for, where to go on, and the headers that clear the round trip. */
export type ProviderCallback<T> =
  | { identity: T; returnTo: string | null; headers: Headers; failure?: never }
  | { failure: Response; identity?: never }

/**
 * GET /api/login/callback: checks the state, exchanges the code (PKCE) and hands the tokens to `verify`. A cancelled
 * or failed round trip (or `verify` throwing) is `failure`, the redirect to /login with a fixed text: an error
 * description in the URL is whatever the link's author wrote.
 */
export async function completeProviderRoundTrip<T, C extends ProviderClient>(
  request: Request,
  client: () => Promise<C>,
  verify: (tokens: ProviderTokens, client: C) => Promise<T>,
): Promise<ProviderCallback<T>> {
  const env = getEnv()
  const headers = clearRoundTripCookies(request)
  const failed = async () => ({
    failure: await signInFailure(SIGN_IN_FAILED_MESSAGE, SIGN_IN_FAILED_TITLE, headers),
  })
  if (!env.oidcEnabled) return failed()
  const error = new URL(request.url).searchParams.get('error')
  if (error === 'access_denied') {
    return { failure: await signInFailure(SIGN_IN_CANCELLED_MESSAGE, SIGN_IN_CANCELLED_TITLE, headers) }
  }
  if (error) return failed()
  let identity: T
  try {
    identity = await providerAuthenticator(request, await client(), verify).authenticate(STRATEGY, request)
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown
    console.warn('Identity provider sign-in rejected:', thrown instanceof Error ? thrown.message : thrown)
    return failed()
  }
  const returnTo = await returnToCookie(env).parse(request.headers.get('Cookie'))
  return { identity, returnTo: typeof returnTo === 'string' ? returnTo : null, headers }
}
