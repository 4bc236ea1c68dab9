import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { startSession } from '#app/services/auth.server.ts'
import { signInBusiness } from '#app/services/business-auth.server.ts'
import { combineHeaders, jsonError } from '#app/services/http.server.ts'
import { clientIp } from '#app/services/rate-limit.server.ts'
import { readJsonBody } from '#app/services/request-body.server.ts'

/** Missing or mistyped values are refused by the sign-in itself, with its own message. */
const credentialsSchema = z.object({ email: z.unknown().optional(), password: z.unknown().optional() })

/** POST {email, password} as JSON → {business, message} and the session cookie (spec §7). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const { email, password } = await readJsonBody(request, credentialsSchema, {
    invalidMessage: 'Send a JSON object with email and password',
  })
  const result = await signInBusiness({ email, password }, { ip: clientIp(request) })
  if (!result.ok) {
    const headers = result.retryAfterSeconds ? { 'Retry-After': String(result.retryAfterSeconds) } : undefined
    return Response.json({ message: result.message, title: result.title }, { status: result.status, headers })
  }
  const headers = await startSession(request, { business: result.business })
  return Response.json(
    { business: result.business, message: 'Login successful' },
    { headers: combineHeaders(headers, { 'Cache-Control': 'no-store' }) },
  )
}

export function loader() {
  return jsonError('Use POST with a JSON body {email, password}', 405)
}
