import { statusOfError } from '#app/services/http/error-status.server.ts'
/**
 * The event form posted without JavaScript: the fields and checked files wait in the session as the draft, and the
 * preview shows it next; a refused post comes back to the form with what was typed.
 */
import { data, redirect } from '@remix-run/node'
import { UNSET_DATE } from '#app/constants.ts'
import type { EventFormValues, PaidDates } from '#app/models/ads/event-schema.ts'
import { datesWithRepeat, repeatFormValues, type RepeatFormValues } from '#app/models/ads/repeat-rules.ts'
import { FACT_FIELD_NAMES, type PracticalFactFields } from '#app/models/ads/practical-facts.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getSession, sessionStorage } from '../accounts/session.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { parseMultipartUpload } from '../media/media-upload.server.ts'
import { discardStaged, type StagedFile } from '../media/media.server.ts'
import { getEventDraft, setEventDraft } from './draft.server.ts'
import { parseEventInput } from './parse.server.ts'
import { assertCategoriesOffered, priceFor } from './save.server.ts'

/**
 * Without JavaScript the form posts here: the fields and checked files wait in the session as the draft of a new
 * ad (or of the edit of `eventID`), and the preview is its own page. A new file replaces the one chosen before;
 * otherwise the earlier upload is kept.
 */
export async function stageDraftFromForm(
  request: Request,
  {
    eventID,
    paidDates,
    keptCategories,
  }: { eventID?: number; paidDates?: PaidDates; keptCategories?: readonly string[] } = {},
) {
  const session = await getSession(request)
  let upload
  try {
    // Up to MAX_DISPLAY_DATES dates and every category arrive as repeated checkbox fields.
    upload = await parseMultipartUpload(request, {
      files: { image: 'photo', video: 'video' },
      maxFields: 128,
    })
  } catch (error) {
    if (error instanceof AppError) {
      const fieldErrors =
        Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : { image: [error.message] }
      // The body could not be read, so there are no values to give back.
      return data(
        { errors: fieldErrors as Record<string, string[]>, submitted: null },
        { status: statusOfError(error) },
      )
    }
    throw error
  }
  const { fields, fieldLists, files } = upload
  const posted = {
    ...fields,
    eventCategory: fieldLists.eventCategory ?? [],
    showAdDates: fieldLists.showAdDates ?? [],
    accessibilityFeatures: fieldLists.accessibilityFeatures ?? [],
  }
  const repeat = repeatFormValues(fields, fieldLists)
  try {
    const input = parseEventInput(
      { ...posted, showAdDates: withRepeatDates(repeat, posted.showAdDates) },
      paidDates,
    )
    await assertCategoriesOffered(input.eventCategory, keptCategories)
    const totalCents = priceFor(input)
    const previous = getEventDraft(session)
    const earlier = previous && previous.eventID === eventID ? previous.files : {}
    const kept = { photo: files.image ?? earlier.photo, video: files.video ?? earlier.video }
    // Files of a draft that is being replaced (a newer file, or a draft for another ad) are not needed any more.
    const unused = previous
      ? [previous.files.photo, previous.files.video].filter(
          (f): f is StagedFile => f !== undefined && f !== kept.photo && f !== kept.video,
        )
      : []
    await discardStaged(unused)
    setEventDraft(session, { ...(eventID === undefined ? {} : { eventID }), input, totalCents, files: kept })
    return redirect('/dashboard/events/preview', {
      headers: { 'Set-Cookie': await sessionStorage.commitSession(session) },
    })
  } catch (error) {
    await discardStaged(Object.values(files))
    // The form comes back with what was typed, so a refused post loses nothing but the chosen files.
    if (error instanceof AppError)
      return data(
        { errors: error.fieldErrors, submitted: { ...submittedValues(fields, posted), repeat } },
        { status: statusOfError(error) },
      )
    throw error
  }
}

/**
 * The checked dates with those of the repeat rule added: without JavaScript the server expands the rule the browser
 * would have. A problem with the rule is refused at its field.
 */
function withRepeatDates(repeat: RepeatFormValues, chosen: string[]) {
  const result = datesWithRepeat(repeat, chosen, { today: platformToday() })
  if ('dates' in result) return result.dates
  const fieldErrors = Object.fromEntries(
    Object.entries(result.problems).map(([name, message]) => [name, [message]]),
  )
  throw new AppError(Object.values(result.problems)[0] ?? 'Invalid repeat', 'invalid', { fieldErrors })
}

/** What a refused form post held, as the form's values (a field that was not sent is blank). */
function submittedValues(
  fields: Record<string, string>,
  lists: Pick<EventFormValues, 'eventCategory' | 'showAdDates'> & { accessibilityFeatures: string[] },
) {
  return {
    eventTitle: fields.eventTitle ?? '',
    eventDescription: fields.eventDescription ?? '',
    eventCategory: lists.eventCategory,
    showAdDates: lists.showAdDates,
    eventDate: fields.eventDate || UNSET_DATE,
    contactPerson: fields.contactPerson ?? '',
    contactPhone: fields.contactPhone ?? '',
    contactEmail: fields.contactEmail ?? '',
    factFields: {
      ...Object.fromEntries(FACT_FIELD_NAMES.map((name) => [name, fields[name] ?? ''])),
      accessibilityFeatures: lists.accessibilityFeatures,
    } as PracticalFactFields,
  } satisfies EventFormValues
}
