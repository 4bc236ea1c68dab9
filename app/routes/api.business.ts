import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { toPublicBusiness } from '#app/models/accounts/business.server.ts'
import { combineHeaders, errorResponse } from '#app/services/http/http.server.ts'
import {
  completeRegistration,
  parseRegistrationFormFields,
  parseRegistrationJson,
  REGISTRATION_FAILURE_OPTIONS,
} from '#app/services/accounts/registration.server.ts'
import { readJsonOrFormBody } from '#app/services/http/request-body.server.ts'
import type { Registration } from '#app/models/accounts/business-schema.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

async function readPayload(request: Request): Promise<Registration> {
  const body = await readJsonOrFormBody(request, z.record(z.string(), z.unknown()), {
    invalidMessage: 'Send the registration fields as a JSON object',
  })
  return body.form ? parseRegistrationFormFields(body.form) : parseRegistrationJson(body.json)
}

/** POST /api/business: registration (spec §7) → 201 with the business (never the password), 400, 409, 429. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const created = await completeRegistration(request, await readPayload(request))
    return Response.json(
      { message: 'Business account created', business: toPublicBusiness(created.business) },
      {
        status: 201,
        headers: combineHeaders(created.headers, {
          Location: `/api/business/${created.business.businessID}`,
        }),
      },
    )
  } catch (error) {
    return errorResponse(error, { request, ...REGISTRATION_FAILURE_OPTIONS })
  }
}

export function loader() {
  return errorResponse(methodNotAllowed('POST', 'Use POST to create a business account'))
}
