/**
 * The event form posted without JavaScript: the fields and checked files wait in the session as the draft, and the
 * preview shows it next; a refused post comes back to the form with what was typed.
 */
import { UNSET_DATE } from '#app/constants.ts'
import { isTicked, paidDatesOf, type EventFormValues } from '#app/models/ads/event-schema.ts'
import { datesWithRepeat, repeatFormValues, type RepeatFormValues } from '#app/models/ads/repeat-rules.ts'
import { FACT_FIELD_NAMES, type PracticalFactFields } from '#app/models/ads/practical-facts.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { Event } from '#db/schema.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import type { StagedFormPost } from '../http/staged-form-post.server.ts'
import { mediaUpload, type ParsedUpload, type ParseUploadOptions } from '../media/media-upload.server.ts'
import { discardStaged, type StagedFile } from '../media/media.server.ts'
import { getEventDraft, setEventDraft, type EventDraft } from './draft.server.ts'
import { dropLinkPhoto, linkPhotoOf } from './fill-from-link.server.ts'
import { parseEventInput } from './parse.server.ts'
import { assertCategoriesOffered, mediaOfSave, priceFor } from './save.server.ts'

/** What the form's post may hold: its two files, and up to MAX_DISPLAY_DATES dates and every category as fields. */
const EVENT_FORM_UPLOAD = {
  files: { image: 'photo', video: 'video' },
  maxFields: 128,
} as const satisfies ParseUploadOptions

/** The list fields of a post, each an empty list when none was sent. */
function postedLists({ fieldLists }: Pick<ParsedUpload, 'fieldLists'>) {
  return {
    eventCategory: fieldLists.eventCategory ?? [],
    showAdDates: fieldLists.showAdDates ?? [],
    accessibilityFeatures: fieldLists.accessibilityFeatures ?? [],
  }
}

/**
 * The form's post checked as the draft of a new ad, or (with `edited`) of the edit of that ad, whose paid dates and
 * categories it keeps. A new file replaces the one chosen before in `previous`, the session's draft; otherwise the
 * earlier upload is kept, and files of the previous draft nobody needs any more are removed. Throws an AppError with
 * the messages per field (the post's own files removed).
 */
async function stageEventDraft(
  post: ParsedUpload,
  {
    previous,
    edited,
    linkPhoto,
  }: {
    previous: EventDraft | null
    edited?: Event
    /** The photo "Fill from a link" staged, used unless a file was chosen. */
    linkPhoto?: StagedFile | null
  },
): Promise<EventDraft> {
  const { fields, fieldLists, files } = post
  const eventID = edited?.eventID
  try {
    const posted = { ...fields, ...postedLists(post) }
    const repeat = repeatFormValues(fields, fieldLists)
    const input = parseEventInput(
      { ...posted, showAdDates: withRepeatDates(repeat, posted.showAdDates) },
      edited ? paidDatesOf(edited) : undefined,
    )
    await assertCategoriesOffered(input.eventCategory, edited?.category)
    const earlier = previous && previous.eventID === eventID ? previous.files : {}
    const kept = {
      photo: files.image ?? linkPhoto ?? earlier.photo,
      video: files.video ?? earlier.video,
    }
    const totalCents = await priceFor(input, undefined, mediaOfSave(kept, edited))
    // Files of a draft that is being replaced (a newer file, or a draft for another ad) are not needed any more.
    const unused = previous
      ? [previous.files.photo, previous.files.video].filter(
          (f): f is StagedFile => f !== undefined && f !== kept.photo && f !== kept.video,
        )
      : []
    await discardStaged([...unused, ...(linkPhoto && linkPhoto !== kept.photo ? [linkPhoto] : [])])
    return { ...(eventID === undefined ? {} : { eventID }), input, totalCents, files: kept }
  } catch (error) {
    // A refused post loses nothing but the chosen files: the form comes back with what was typed.
    await discardStaged(Object.values(files))
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

/** What a form post held, as the form's values (a field that was not sent is blank), its repeat fields included. */
function postedFormValues(post: Pick<ParsedUpload, 'fields' | 'fieldLists'>) {
  const { fields, fieldLists } = post
  const lists = postedLists(post)
  return {
    eventTitle: fields.eventTitle ?? '',
    eventDescription: fields.eventDescription ?? '',
    eventCategory: lists.eventCategory,
    showAdDates: lists.showAdDates,
    eventDate: fields.eventDate || UNSET_DATE,
    contactPerson: fields.contactPerson ?? '',
    contactPhone: fields.contactPhone ?? '',
    contactEmail: fields.contactEmail ?? '',
    startTime: fields.startTime ?? '',
    endTime: fields.endTime ?? '',
    endsNextDay: isTicked(fields.endsNextDay),
    factFields: {
      ...Object.fromEntries(FACT_FIELD_NAMES.map((name) => [name, fields[name] ?? ''])),
      accessibilityFeatures: lists.accessibilityFeatures,
    } as PracticalFactFields,
    repeat: repeatFormValues(fields, fieldLists),
  } satisfies EventFormValues
}

/**
 * The event form's post, staged as the session's draft of a new ad or (with `edited`) of that ad's edit. When the
 * body could not be read the refusal is shown at the photo.
 */
export function eventFormPost(edited?: Event): StagedFormPost<StagedFile, EventFormValues> {
  return {
    upload: mediaUpload(EVENT_FORM_UPLOAD),
    stage: async (post, session) => {
      const linkPhoto = edited ? null : linkPhotoOf(session)
      setEventDraft(
        session,
        await stageEventDraft(post, { previous: getEventDraft(session), edited, linkPhoto }),
      )
      // The draft holds it now (or it was replaced by the chosen file and removed).
      if (linkPhoto) await dropLinkPhoto(session, { kept: true })
    },
    typed: postedFormValues,
    unreadField: 'image',
  }
}
