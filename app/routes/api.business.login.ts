import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { startSession } from '#app/services/http/auth.server.ts'
import { signInBusiness } from '#app/services/accounts/business-auth.server.ts'
import { combineHeaders, errorResponse } from '#app/services/http/http.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { readJsonBody } from '#app/services/http/request-body.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/** Missing or mistyped values are refused by the sign-in itself, with its own message. */
const credentialsSchema = z.object({ email: z.unknown().optional(), password: z.unknown().optional() })

/** POST {email, password} as JSON → {business, message} and the session cookie. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const { email, password } = await readJsonBody(request, credentialsSchema, {
      invalidMessage: 'Send a JSON object with email and password',
    })
    const business = await signInBusiness({ email, password }, { ip: clientIp(request) })
    const headers = await startSession(request, { business })
    return Response.json(
      { business, message: 'Login successful' },
      { headers: combineHeaders(headers, { 'Cache-Control': 'no-store' }) },
    )
  } catch (error) {
    return errorResponse(error, { request })
  }
}

export function loader() {
  return errorResponse(methodNotAllowed('POST', 'Use POST with a JSON body {email, password}'))
}
