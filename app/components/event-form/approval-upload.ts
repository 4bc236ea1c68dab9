import { UNSET_DATE } from '#app/constants.ts'
import { MEDIA_STORE_FAILED_CODE } from '#app/utils/media-types.ts'
import type { EventFormValues } from './values.ts'

export const APPROVE_FAILED_MESSAGE = 'Failed to approve your ad. Please try again.'

export interface ApprovalAnswer {
  status: number
  json: {
    eventID?: number
    message?: string
    /** A reason the client branches on: `media_store_failed` when the server could not store the files. */
    code?: string
    resubmitted?: boolean
    /** A free listing, sent on without a card. */
    free?: boolean
    /** The server's problems per field (a 4xx). */
    errors?: Record<string, string[]>
  } | null
}

/** The multipart body /api/approve-event reads: the ad's fields and dates as JSON fields, beside the files. */
export function approvalBody({
  values,
  businessName,
  cost,
  eventID,
  photo,
  video,
}: {
  values: EventFormValues
  businessName: string
  cost: string
  eventID?: number
  photo?: File
  video?: File
}) {
  const body = new FormData()
  const eventData = {
    eventTitle: values.eventTitle.trim(),
    eventDescription: values.eventDescription.trim(),
    eventCategory: values.eventCategory,
    eventDate: values.eventDate || UNSET_DATE,
    contactPerson: values.contactPerson,
    contactPhone: values.contactPhone,
    contactEmail: values.contactEmail,
    startTime: values.startTime ?? '',
    endTime: values.endTime ?? '',
    endsNextDay: Boolean(values.endsNextDay),
    ...values.factFields,
    businessName,
    showAdOnDate: values.showAdDates.map((d) => `${d},`).join(''),
  }
  body.set('eventData', JSON.stringify(eventData))
  body.set('selectedDates', JSON.stringify(values.showAdDates))
  body.set('totalAmount', cost)
  if (eventID !== undefined) body.set('eventID', String(eventID))
  if (photo) body.set('image', photo)
  if (video) body.set('video', video)
  return body
}

/** Sends the ad with its files to /api/approve-event and reports upload progress. */
export function uploadApproval(body: FormData, onProgress: (fraction: number) => void) {
  return new Promise<ApprovalAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/approve-event')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => resolve({ status: xhr.status, json: xhr.response as ApprovalAnswer['json'] })
    xhr.onerror = () => reject(new Error('Network error'))
    xhr.send(body)
  })
}

/**
 * What the advertiser reads when the approval failed: the server's own words for a 4xx and for files it could not
 * store (a 507 or 503, which the advertiser can only try again later), else a general line.
 */
export function approvalFailureMessage({ status, json }: ApprovalAnswer) {
  const told = (status >= 400 && status < 500) || json?.code === MEDIA_STORE_FAILED_CODE
  return told && json?.message ? json.message : APPROVE_FAILED_MESSAGE
}
