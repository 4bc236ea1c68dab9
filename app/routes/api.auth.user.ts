import type { LoaderFunctionArgs } from '@remix-run/node'
import { getBusiness, getUser } from '#app/services/auth.server.ts'

/** The signed-in identity-provider user and/or advertiser; 401 with a message ending in "Unauthorized" otherwise. */
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, business] = await Promise.all([getUser(request), getBusiness(request)])
  const headers = { 'Cache-Control': 'no-store' }
  if (!user && !business) return Response.json({ message: 'Unauthorized' }, { status: 401, headers })
  return Response.json({ user, business }, { headers })
}
