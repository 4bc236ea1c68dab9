import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { toPublicBusiness, toSessionCopy } from '#app/models/accounts/business.server.ts'
import { addBusinessToSession, getUser } from '#app/services/http/auth.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { combineHeaders, errorResponse } from '#app/services/http/http.server.ts'
import {
  completeRegistration,
  fieldErrorsOf,
  parseRegistrationJson,
  REGISTRATION_FAILURE_OPTIONS,
  registrationRefused,
  serverRegistrationSchema,
} from '#app/services/accounts/registration.server.ts'
import { readJsonOrFormBody } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import type { Registration } from '#app/models/accounts/business-schema.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

async function readPayload(request: Request): Promise<Registration> {
  const body = await readJsonOrFormBody(request, z.record(z.string(), z.unknown()), {
    invalidMessage: 'Send the registration fields as a JSON object',
  })
  if (!body.form) return parseRegistrationJson(body.json)
  // Form-encoded calls: the form recipe's reading, refused like JSON.
  const submission = await parseFormSubmission(body.form, serverRegistrationSchema, { async: true })
  if (submission.status === 'success') return submission.value
  throw registrationRefused(fieldErrorsOf(submission.error))
}

/** POST /api/business: registration → 201 with the business (never the password), 400, 409, 429. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const registration = await readPayload(request)
    // Someone signed in through the identity provider gets the new business linked and in their session.
    const user = await getUser(request)
    const business = await completeRegistration(registration, {
      ip: clientIp(request),
      linkUserId: user?.id,
      origin: linkOrigin(request),
    })
    const headers = await addBusinessToSession(request, user, toSessionCopy(business))
    return Response.json(
      { message: 'Business account created', business: toPublicBusiness(business) },
      {
        status: 201,
        headers: combineHeaders(headers, { Location: `/api/business/${business.businessID}` }),
      },
    )
  } catch (error) {
    return errorResponse(error, { request, ...REGISTRATION_FAILURE_OPTIONS })
  }
}

export function loader() {
  return errorResponse(methodNotAllowed('POST', 'Use POST to create a business account'))
}
