import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { toPublicBusiness } from '#app/models/business.server.ts'
import { combineHeaders, jsonError } from '#app/services/http.server.ts'
import {
  completeRegistration,
  parseRegistrationFormFields,
  parseRegistrationJson,
  statusForFieldErrors,
  type ParsedRegistration,
} from '#app/services/registration.server.ts'
import { readJsonOrFormBody } from '#app/services/request-body.server.ts'

const INVALID_MESSAGE = 'Please correct the highlighted fields'

async function readPayload(request: Request): Promise<ParsedRegistration> {
  const body = await readJsonOrFormBody(request, z.record(z.string(), z.unknown()), {
    invalidMessage: 'Send the registration fields as a JSON object',
  })
  return body.form ? parseRegistrationFormFields(body.form) : parseRegistrationJson(body.json)
}

/** POST /api/business: registration (spec §7) → 201 with the business (never the password), 400, 409. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const parsed = await readPayload(request)
  if (!parsed.ok) return jsonError(parsed.message, parsed.status)
  if ('errors' in parsed) {
    const status = statusForFieldErrors(parsed.errors)
    const message = status === 409 ? parsed.errors.businessEmail![0]! : INVALID_MESSAGE
    return jsonError(message, status, { errors: parsed.errors })
  }
  const created = await completeRegistration(request, parsed.data)
  if (!created.ok) {
    const extra = created.status === 409 ? { errors: { businessEmail: [created.message] } } : undefined
    const response = jsonError(created.message, created.status, extra)
    if (created.retryAfterSeconds) response.headers.set('Retry-After', String(created.retryAfterSeconds))
    return response
  }
  return Response.json(
    { message: 'Business account created', business: toPublicBusiness(created.business) },
    {
      status: 201,
      headers: combineHeaders(created.headers, { Location: `/api/business/${created.business.businessID}` }),
    },
  )
}

export function loader() {
  return jsonError('Use POST to create a business account', 405)
}
