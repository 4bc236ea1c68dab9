import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { LogoutButton } from '#app/components/site-chrome.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { endSession } from '#app/services/http/auth.server.ts'
import { logoutDestination } from '#app/services/accounts/oidc.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { getViewer } from '#app/services/http/viewer.server.ts'

export const handle = { hydrate: false }

export const meta: MetaFunction = () => [{ title: `Sign out — ${PRODUCT_NAME}` }]

/**
 * A GET never ends a session: any page on any site can make a browser GET this address (a link, an image). Someone
 * signed in gets a page with the sign-out button; anyone else goes home.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request)
  if (!viewer) throw redirect('/')
  return { name: viewer.name }
}

/** The Logout button's POST (same-site only, see request-guard.server.ts) ends the session on the server. */
export async function action({ request }: ActionFunctionArgs) {
  const { headers, identity, hadSession } = await endSession(request)
  const destination = await logoutDestination(identity, siteOrigin(request))
  if (!hadSession) return redirect(destination, { headers })
  return redirectWithToast(
    destination,
    { title: 'Signed Out', description: 'You have been signed out.' },
    { headers },
  )
}

export default function SignOut() {
  const { name } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-ink">Sign out</h1>
      <p className="mt-4 text-slate-700">
        You are signed in as <strong>{name}</strong>. Sign out of {PRODUCT_NAME} on this device?
      </p>
      <LogoutButton className="mt-6 rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700" />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
