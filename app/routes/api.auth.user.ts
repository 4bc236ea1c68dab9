import type { LoaderFunctionArgs } from '@remix-run/node'
import { getBusiness, getUser } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/** The signed-in identity-provider user and/or advertiser; 401 with a message ending in "Unauthorized" otherwise. */
export async function loader({ request }: LoaderFunctionArgs) {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    const [user, business] = await Promise.all([getUser(request), getBusiness(request)])
    if (!user && !business) throw new AppError('Unauthorized', 'unauthenticated')
    return Response.json({ user, business }, { headers })
  } catch (error) {
    return errorResponse(error, { request, headers })
  }
}
