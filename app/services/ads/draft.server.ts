import type { EventInput } from '#app/models/ads/event-schema.ts'
import type { sessionStorage } from '../http/session.server.ts'
import type { StagedFile } from '../media/media.server.ts'

/** An ad being written without JavaScript: the fields and the uploaded files wait in the server session. */
export interface EventDraft {
  /** Set when the draft edits this saved (unpaid) ad rather than making a new one. */
  eventID?: number
  input: EventInput
  totalCents: number
  files: { photo?: StagedFile; video?: StagedFile }
}

/** The server session a route has read (the draft's key in it is kept here). */
export type ServerSession = Awaited<ReturnType<typeof sessionStorage.getSession>>

const DRAFT_KEY = 'eventDraft'

export function getEventDraft(session: ServerSession): EventDraft | null {
  return (session.get(DRAFT_KEY) as EventDraft | undefined) ?? null
}

/** The draft for a new ad (`eventID` undefined) or for editing that ad; a draft for anything else is not it. */
export function draftFor(draft: EventDraft | null, eventID: number | undefined): EventDraft | null {
  return draft && draft.eventID === eventID ? draft : null
}

export function setEventDraft(session: ServerSession, draft: EventDraft | null) {
  if (draft) session.set(DRAFT_KEY, draft)
  else session.unset(DRAFT_KEY)
}
