import type { LoaderFunctionArgs } from '@remix-run/node'
import { configuredProvider, identityFromTokens } from '#app/services/accounts/oidc.server.ts'
import { signInIdentity } from '#app/services/accounts/identity-sign-in.server.ts'
import { completeProviderRoundTrip } from '#app/services/http/oidc-round-trip.server.ts'
import { answerIdentitySignIn } from '#app/services/http/sign-in-redirects.server.ts'

/** Where the identity provider sends the browser back with `code` and `state` (or `error`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const callback = await completeProviderRoundTrip(request, configuredProvider, identityFromTokens)
  if (callback.failure) return callback.failure
  const { identity, returnTo, headers } = callback
  return answerIdentitySignIn(
    request,
    signInIdentity(identity.profile, { emailVerified: identity.emailVerified === true }),
    { identity: { provider: 'oidc', idToken: identity.idToken }, redirectTo: returnTo, headers },
  )
}
