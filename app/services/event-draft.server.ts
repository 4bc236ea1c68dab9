import type { Session } from '@remix-run/node'
import type { EventInput } from '#app/models/event-schema.ts'
import type { StagedFile } from './media.server.ts'

/** An ad being written without JavaScript: the fields and the uploaded files wait in the server session. */
export interface EventDraft {
  /** Set when the draft edits this saved (unpaid) ad rather than making a new one. */
  eventID?: number
  input: EventInput
  totalCents: number
  files: { photo?: StagedFile; video?: StagedFile }
}

/** What checkout needs (spec's eventPaymentData), kept in the server session rather than the browser. */
export interface EventPaymentData {
  businessID: number
  selectedDates: string[]
  eventData: EventInput
  totalAmount: number
  eventID: number
}

const DRAFT_KEY = 'eventDraft'
const PAYMENT_KEY = 'eventPaymentData'

export function getEventDraft(session: Session): EventDraft | null {
  return (session.get(DRAFT_KEY) as EventDraft | undefined) ?? null
}

/** The draft for a new ad (`eventID` undefined) or for editing that ad; a draft for anything else is not it. */
export function getEventDraftFor(session: Session, eventID: number | undefined): EventDraft | null {
  const draft = getEventDraft(session)
  return draft && draft.eventID === eventID ? draft : null
}

export function setEventDraft(session: Session, draft: EventDraft | null) {
  if (draft) session.set(DRAFT_KEY, draft)
  else session.unset(DRAFT_KEY)
}

export function getEventPaymentData(session: Session): EventPaymentData | null {
  return (session.get(PAYMENT_KEY) as EventPaymentData | undefined) ?? null
}

export function setEventPaymentData(session: Session, data: EventPaymentData | null) {
  if (data) session.set(PAYMENT_KEY, data)
  else session.unset(PAYMENT_KEY)
}
