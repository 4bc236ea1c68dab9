import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'
import { getBusiness } from '#app/services/http/auth.server.ts'
import {
  APPROVAL_UPLOAD,
  approveAdForPayment,
  LIVE_EDIT_TOAST,
  rememberPayment,
  RESUBMITTED_TOAST,
  saveApprovedUpload,
} from '#app/services/ads/approval.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'
import { isJsonRequest, readJsonBody } from '#app/services/http/request-body.server.ts'
import { getSession, sessionStorage } from '#app/services/http/session.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'

const savedEventSchema = z.object({ eventID: idSchema })

const SAVE_FAILED_MESSAGE = 'Failed to save your event. Please try again.'

export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const business = await getBusiness(request)
    if (!business) throw new AppError('Please sign in', 'unauthenticated')
    const session = await getSession(request)
    if (isJsonRequest(request)) {
      const { eventID } = await readJsonBody(request, savedEventSchema, {
        invalidMessage: 'eventID is required',
      })
      await approveAdForPayment(business, eventID)
      return Response.json({ success: true, eventID })
    }

    const saved = await saveApprovedUpload(
      business,
      await readMultipartUpload(request, mediaUpload(APPROVAL_UPLOAD)),
      { ip: clientIp(request), mail: mailContext(request) },
    )
    if (saved.resubmitted) {
      return Response.json({
        eventID: saved.eventID,
        resubmitted: true,
        live: saved.appliedAtOnce,
        message: (saved.appliedAtOnce ? LIVE_EDIT_TOAST : RESUBMITTED_TOAST).description,
      })
    }
    // A free listing is sent on already: its confirmation page says so.
    if (saved.free) return Response.json({ eventID: saved.eventID, free: true })
    const { input, eventID, totalCents } = saved
    rememberPayment(session, { business, input, eventID, totalCents })
    return Response.json(
      { eventID },
      { headers: { 'Set-Cookie': await sessionStorage.commitSession(session) } },
    )
  } catch (error) {
    return errorResponse(error, {
      request,
      logAs: 'Saving an event failed',
      unexpectedMessage: SAVE_FAILED_MESSAGE,
    })
  }
}
