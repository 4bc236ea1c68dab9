import type { LoaderFunctionArgs } from '@remix-run/node'
import { completeProviderSignIn } from '#app/services/accounts/oidc.server.ts'

/** Where the identity provider sends the browser back with `code` and `state` (or `error`). */
export function loader({ request }: LoaderFunctionArgs) {
  return completeProviderSignIn(request)
}
