import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema, parseId } from '#app/models/platform/input-rules.ts'
import { getBusiness } from '#app/services/accounts/auth.server.ts'
import {
  approveAdForPayment,
  rememberPayment,
  LIVE_EDIT_TOAST,
  RESUBMITTED_TOAST,
  saveAd,
} from '#app/services/ads/approval.server.ts'
import { requireEditableEvent } from '#app/services/ads/editable.server.ts'
import { parseEventInput } from '#app/services/ads/parse.server.ts'
import { paidDatesOf } from '#app/models/ads/event-schema.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { parseMultipartUpload } from '#app/services/media/media-upload.server.ts'
import { discardStaged } from '#app/services/media/media.server.ts'
import {
  isJsonRequest,
  jsonText,
  NOT_JSON_MESSAGE,
  readJsonBody,
} from '#app/services/http/request-body.server.ts'
import { getSession, sessionStorage } from '#app/services/accounts/session.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'

const savedEventSchema = z.object({ eventID: idSchema })

const SAVE_FAILED_MESSAGE = 'Failed to save your event. Please try again.'

function parseJsonField(value: string | undefined, field: string) {
  if (value === undefined || value === '') return undefined
  const parsed = jsonText(field).safeParse(value)
  if (parsed.success) return parsed.data
  const message = parsed.error.issues[0]?.message ?? NOT_JSON_MESSAGE
  throw new AppError(message === NOT_JSON_MESSAGE ? `${field} ${NOT_JSON_MESSAGE}` : message, 'invalid')
}

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

    const { fields, files } = await parseMultipartUpload(request, {
      files: { image: 'photo', video: 'video' },
    })
    try {
      // Present when the advertiser edits their ad: it is saved in place instead of as a new one.
      const eventID = fields.eventID ? parseId(fields.eventID) : undefined
      if (eventID === null) throw new AppError('eventID must be an event id', 'invalid')
      const edited = eventID === undefined ? null : await requireEditableEvent(business, eventID)
      const eventData = parseJsonField(fields.eventData, 'eventData')
      const selectedDates = parseJsonField(fields.selectedDates, 'selectedDates')
      const input = parseEventInput(
        {
          ...(typeof eventData === 'object' && eventData ? eventData : {}),
          ...(selectedDates !== undefined ? { showAdDates: selectedDates } : {}),
        },
        edited ? paidDatesOf(edited) : undefined,
      )
      const claimed =
        fields.totalAmount === undefined || fields.totalAmount === '' ? null : Number(fields.totalAmount)
      if (claimed !== null && !Number.isFinite(claimed))
        throw new AppError('totalAmount must be a number', 'invalid')
      const saved = await saveAd({
        business,
        input,
        files: { photo: files.image, video: files.video },
        claimedTotal: claimed,
        eventID,
      })
      if (saved.resubmitted) {
        return Response.json({
          eventID: saved.eventID,
          resubmitted: true,
          live: saved.appliedAtOnce,
          message: (saved.appliedAtOnce ? LIVE_EDIT_TOAST : RESUBMITTED_TOAST).description,
        })
      }
      rememberPayment(session, { business, input, eventID: saved.eventID, totalCents: saved.totalCents })
      return Response.json(
        { eventID: saved.eventID },
        { headers: { 'Set-Cookie': await sessionStorage.commitSession(session) } },
      )
    } finally {
      await discardStaged(Object.values(files))
    }
  } catch (error) {
    return errorResponse(error, {
      request,
      logAs: 'Saving an event failed',
      unexpectedMessage: SAVE_FAILED_MESSAGE,
    })
  }
}
