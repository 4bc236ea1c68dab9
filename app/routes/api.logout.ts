import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { endSession } from '#app/services/auth.server.ts'
import { logoutDestination } from '#app/services/identity.server.ts'
import { redirectWithToast } from '#app/services/toast.server.ts'

async function logout(request: Request) {
  const { headers, identity, hadSession } = await endSession(request)
  const destination = await logoutDestination(request, identity)
  if (!hadSession) return redirect(destination, { headers })
  return redirectWithToast(
    destination,
    { title: 'Signed Out', description: 'You have been signed out.' },
    { headers },
  )
}

/** The Logout link is a plain navigation (GET); a form may POST. Both end the session on the server. */
export function loader({ request }: LoaderFunctionArgs) {
  return logout(request)
}

export function action({ request }: ActionFunctionArgs) {
  return logout(request)
}
