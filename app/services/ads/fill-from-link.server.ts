/**
 * "Fill from a link" on the Create form: the page or .ics file at an address read into the form's fields, and its
 * photo. Nothing is saved: the advertiser sees the fields filled and continues as usual. Without JavaScript the
 * photo waits in the session (staged as an upload is) for the form's next post; with it, the form's photo input
 * gets the photo's bytes and uploads them as if chosen.
 */
import { Readable } from 'node:stream'
import { lastBookableDate } from '#app/models/ads/event-rules.ts'
import { eventFromDocument } from '#app/models/ads/link-event.ts'
import type { EventFormValues } from '#app/models/ads/event-schema.ts'
import {
  filledFormValues,
  linkEventFill,
  type LinkFillReport,
  type LinkFormValues,
} from '#app/models/ads/link-event-form.ts'
import { LINK_TEXT } from '#app/models/ads/link-address-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { discardStaged, type StagedFile } from '../media/media.server.ts'
import { mediaUploadFiles } from '../media/media-upload.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import type { ServerSession } from './draft.server.ts'

export type { LinkFillReport }
import {
  fetchLinkDocument,
  fetchLinkPhoto,
  LINK_DEADLINE_MS,
  linkDeadline,
  linkRefusal,
  type LinkPhoto,
} from './fetch-from-link.server.ts'
import { LINK_FILL_WINDOW_MS, linkFillKey, takeSlot } from '../platform/rate-limit.server.ts'

export interface LinkFillResult {
  values: LinkFormValues
  report: LinkFillReport
  photo?: LinkPhoto
}

export const linkFillsPerHourMessage = (max: number) =>
  `You can fill at most ${max} ads from a link in an hour. Fill this one in by hand, or try again later.`

/**
 * Counts one read of a link for the business, refused as too many requests past LINK_FILLS_PER_BUSINESS_PER_HOUR:
 * every fill is an outbound fetch of up to 7 MB made for it.
 */
export async function takeLinkFillSlot(businessID: number) {
  const max = getEnv().LINK_FILLS_PER_BUSINESS_PER_HOUR
  const slot = await takeSlot(linkFillKey(businessID), { max, windowMs: LINK_FILL_WINDOW_MS })
  if (slot.allowed) return
  const message = linkFillsPerHourMessage(max)
  throw new AppError(message, 'too_many_requests', {
    retryAfterSeconds: slot.retryAfterSeconds,
    fieldErrors: { linkAddress: [message] },
  })
}

export interface FillFromLinkOptions {
  /** The whole read's deadline, {@link LINK_DEADLINE_MS} unless a test shortens it. */
  deadlineMs?: number
  /** Hosts read whatever their port and address (tests); LINK_FETCH_ALLOW_HOSTS by default. */
  allowedHosts?: readonly string[]
}

/**
 * Reads `address` and what it says of its event as the form's fields. Throws the link's refusal (an AppError at
 * the field `linkAddress`) when it cannot be read or describes no event; a photo that cannot be used is only noted.
 */
export async function fillFromLink(
  address: string,
  { deadlineMs = LINK_DEADLINE_MS, allowedHosts }: FillFromLinkOptions = {},
): Promise<LinkFillResult> {
  const signal = linkDeadline(deadlineMs)
  const document = await fetchLinkDocument(address, { signal, allowedHosts })
  const today = platformToday()
  const extracted = eventFromDocument(document, { timeZone: getEnv().APP_TIME_ZONE, today })
  const fill = extracted && linkEventFill(extracted.event, { today, lastDate: lastBookableDate(today) })
  if (!extracted || !fill || fill.found.length === 0) throw linkRefusal(LINK_TEXT.nothingFound)
  const report: LinkFillReport = {
    address: document.url.href,
    sources: extracted.sources,
    found: fill.found,
    missing: fill.missing,
    notes: fill.notes,
  }
  let photo: LinkPhoto | undefined
  if (extracted.event.imageUrl) {
    try {
      photo = await fetchLinkPhoto(extracted.event.imageUrl, { signal, allowedHosts })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      report.notes.push(`The photo could not be used: ${error.message}`)
    }
  }
  if (photo) {
    report.found.push('photo')
    report.photoName = photo.name
  } else report.missing.push('photo')
  return { values: fill.values, report, photo }
}

const LINK_PHOTO_KEY = 'linkPhoto'

/** The photo a fill without JavaScript staged for the form's next post. */
export function linkPhotoOf(session: ServerSession): StagedFile | null {
  return (session.get(LINK_PHOTO_KEY) as StagedFile | undefined) ?? null
}

/** Forgets the staged photo (the draft took it, or another replaced it), its files removed unless `kept`. */
export async function dropLinkPhoto(session: ServerSession, { kept = false } = {}) {
  const staged = linkPhotoOf(session)
  session.unset(LINK_PHOTO_KEY)
  if (staged && !kept) await discardStaged(staged)
}

/**
 * Stages the photo of a fill without JavaScript as an upload of it would be (checked, re-encoded, under `tmp/`)
 * and keeps it in the session, in place of the one an earlier fill staged. A photo the upload refuses is answered
 * with its message, and the rest of the fill stands.
 */
export async function keepLinkPhoto(session: ServerSession, photo: LinkPhoto): Promise<string | null> {
  await dropLinkPhoto(session)
  try {
    const staged = await mediaUploadFiles({ image: 'photo' }).receive('image', {
      stream: Readable.from([photo.bytes]),
      name: photo.name,
    })
    if (staged) session.set(LINK_PHOTO_KEY, staged)
    return null
  } catch (error) {
    if (error instanceof AppError && error.kind !== 'insufficient_storage' && error.kind !== 'unavailable')
      return `The photo could not be used: ${error.message}`
    throw error
  }
}

/**
 * The fill of the Create form posted without JavaScript: the form's values as typed with what the link gave in
 * their place, its report, and its photo staged in the session for the form's next post. Throws the link's
 * refusal as {@link fillFromLink} does.
 */
export async function fillTypedForm(
  session: ServerSession,
  { address, typed }: { address: string; typed: EventFormValues },
  options?: FillFromLinkOptions,
): Promise<{ initial: EventFormValues; report: LinkFillReport }> {
  const { values, report, photo } = await fillFromLink(address, options)
  if (photo) {
    const problem = await keepLinkPhoto(session, photo)
    if (problem) {
      report.found = report.found.filter((f) => f !== 'photo')
      report.missing.push('photo')
      report.notes.push(problem)
      delete report.photoName
    }
  }
  return { initial: filledFormValues(typed, values), report }
}
