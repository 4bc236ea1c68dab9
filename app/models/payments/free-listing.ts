/**
 * Free community listings: which categories the host lists free and what a free listing includes, for the server,
 * the administrators' form and the event form alike. An ad is free when every category it has is free
 * (`freeAllowanceOf`); it is then listed at $0, within the limits of its categories.
 */
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'

/** What a free listing in one category includes. */
export interface FreeAllowance {
  /** At most this many display dates. */
  maxDates: number
  photo: boolean
  video: boolean
}

/** A category the host lists free, by its id (a renamed category keeps its rule). */
export interface FreeListing extends FreeAllowance {
  categoryID: number
}

/** What a category's free listing includes until the host says otherwise. */
export const DEFAULT_FREE_ALLOWANCE: FreeAllowance = { maxDates: 7, photo: true, video: false }

/**
 * The rule: an ad is free when it has categories and every one of them is free. What it may then have is what all
 * of them include (the fewest dates; a photo or a video only when every category includes it). Null: not free.
 */
export function freeAllowanceOf(
  categories: readonly string[],
  freeByName: Readonly<Record<string, FreeAllowance>>,
): FreeAllowance | null {
  if (categories.length === 0) return null
  let allowance: FreeAllowance | null = null
  for (const name of categories) {
    const own = Object.hasOwn(freeByName, name) ? freeByName[name] : undefined
    if (!own) return null
    allowance = allowance
      ? {
          maxDates: Math.min(allowance.maxDates, own.maxDates),
          photo: allowance.photo && own.photo,
          video: allowance.video && own.video,
        }
      : { ...own }
  }
  return allowance
}

export const tooManyFreeDatesMessage = (max: number) =>
  `A free listing can have at most ${max} display date${max === 1 ? '' : 's'}. Remove some dates, or choose a category that is not free.`
export const FREE_NO_PHOTO_MESSAGE = 'A free listing in this category cannot have a photo. Remove the photo.'
export const FREE_NO_VIDEO_MESSAGE = 'A free listing in this category cannot have a video. Remove the video.'

/** The confirmation page of a free listing just sent. */
export const freeListingSentPath = (eventID: number) => `/dashboard/events/${eventID}/submitted`

/** The button that sends a free listing, in place of "Approve Your Ad - $cost". */
export const SUBMIT_FREE_LABEL = 'Submit for review'

/** What the preview says of a free listing before it is sent. */
export const FREE_PREVIEW_TEXT =
  'This listing is free: no card is needed. Our reviewers check it before it appears on the calendar.'

/** The fields of the event form a free listing's limits are shown and refused at. */
export const FREE_LIMIT_FIELDS = { dates: 'showAdDates', photo: 'image', video: 'video' } as const

/** What of the ad goes past its free listing's `allowance`, by the event form's field; empty when nothing does. */
export function freeListingProblems(
  ad: { dates: number; photo: boolean; video: boolean },
  allowance: FreeAllowance,
): Record<string, string[]> {
  const problems: Record<string, string[]> = {}
  if (ad.dates > allowance.maxDates)
    problems[FREE_LIMIT_FIELDS.dates] = [tooManyFreeDatesMessage(allowance.maxDates)]
  if (ad.photo && !allowance.photo) problems[FREE_LIMIT_FIELDS.photo] = [FREE_NO_PHOTO_MESSAGE]
  if (ad.video && !allowance.video) problems[FREE_LIMIT_FIELDS.video] = [FREE_NO_VIDEO_MESSAGE]
  return problems
}

/** Refuses an ad that goes past its free listing's `allowance`, with each problem at its field. */
export function assertFreeListingFits(
  ad: { dates: number; photo: boolean; video: boolean },
  allowance: FreeAllowance,
) {
  const problems = freeListingProblems(ad, allowance)
  const first = Object.values(problems)[0]?.[0]
  if (first) throw new AppError(first, 'invalid', { fieldErrors: problems })
}

/** What the event form says where a free listing's limit applies. */
export function freeAllowanceText(allowance: FreeAllowance) {
  return {
    dates: `This listing is free: up to ${allowance.maxDates} display date${allowance.maxDates === 1 ? '' : 's'}.`,
    photo: allowance.photo ? null : 'A free listing in this category has no photo.',
    video: allowance.video ? null : 'A free listing in this category has no video.',
  }
}

/* The administrators' form ------------------------------------------------------------------------------------ */

/** The form's fields for category `id`: free or not, its number of dates, photo and video. */
export const freeField = (id: number) => `free${id}`
export const freeDatesField = (id: number) => `freeDates${id}`
export const freePhotoField = (id: number) => `freePhoto${id}`
export const freeVideoField = (id: number) => `freeVideo${id}`

const FREE_FIELD = /^free(Dates|Photo|Video)?(\d{1,9})$/
const TICKED = 'on'

export const FREE_DATES_MESSAGE = `Enter a whole number of free display dates from 1 to ${MAX_DISPLAY_DATES}`
export const FREE_TICK_MESSAGE = 'A box is ticked ("on") or not sent'
export const FREE_CATEGORY_MESSAGE = 'That category does not exist or is hidden'

/** The category ids the form's free listing fields name, in order. */
export function freeFieldCategoryIDs(form: Readonly<Record<string, string | undefined>>): number[] {
  const ids = new Set<number>()
  for (const name of Object.keys(form)) {
    const match = FREE_FIELD.exec(name)
    if (match) ids.add(Number(match[2]))
  }
  return [...ids].sort((a, b) => a - b)
}

/**
 * The free listing fields read into the categories listed free, or the problems by field. A category's other fields
 * count only when it is ticked free; a box is "on" or absent (a browser sends nothing for an unticked one).
 */
export function readFreeListingsForm(form: Readonly<Record<string, string | undefined>>): {
  freeListings: FreeListing[]
  problems: Record<string, string>
} {
  const problems: Record<string, string> = {}
  const freeListings: FreeListing[] = []
  for (const id of freeFieldCategoryIDs(form)) {
    for (const name of [freeField(id), freePhotoField(id), freeVideoField(id)]) {
      const value = form[name]
      if (value !== undefined && value !== TICKED) problems[name] = FREE_TICK_MESSAGE
    }
    if (id < 1) problems[freeField(id)] = FREE_CATEGORY_MESSAGE
    if (form[freeField(id)] !== TICKED) continue
    const datesText = form[freeDatesField(id)]?.trim() ?? ''
    const maxDates = /^\d{1,3}$/.test(datesText) ? Number(datesText) : NaN
    if (!(maxDates >= 1 && maxDates <= MAX_DISPLAY_DATES)) problems[freeDatesField(id)] = FREE_DATES_MESSAGE
    freeListings.push({
      categoryID: id,
      maxDates,
      photo: form[freePhotoField(id)] === TICKED,
      video: form[freeVideoField(id)] === TICKED,
    })
  }
  return { freeListings, problems }
}

/** The form's values for `categoryIDs`: a free category as saved, any other with the defaults to start from. */
export function freeListingsFormValues(freeListings: readonly FreeListing[], categoryIDs: readonly number[]) {
  const values: Record<string, string> = {}
  for (const id of categoryIDs) {
    const saved = freeListings.find((f) => f.categoryID === id)
    const allowance = saved ?? DEFAULT_FREE_ALLOWANCE
    if (saved) values[freeField(id)] = TICKED
    values[freeDatesField(id)] = String(allowance.maxDates)
    if (allowance.photo) values[freePhotoField(id)] = TICKED
    if (allowance.video) values[freeVideoField(id)] = TICKED
  }
  return values
}

/** A free listing in words ("up to 7 dates, photo, no video"), for the page and the history. */
export function describeAllowance(allowance: FreeAllowance) {
  return `up to ${allowance.maxDates} date${allowance.maxDates === 1 ? '' : 's'}, ${allowance.photo ? 'photo' : 'no photo'}, ${allowance.video ? 'video' : 'no video'}`
}

/** What changed in the free listings, in words, with each category's name (`nameOf`), for the history. */
export function freeListingChanges(
  before: readonly FreeListing[],
  after: readonly FreeListing[],
  nameOf: (categoryID: number) => string,
): string[] {
  const changes: string[] = []
  const ids = [...new Set([...before, ...after].map((f) => f.categoryID))].sort((a, b) => a - b)
  for (const id of ids) {
    const was = before.find((f) => f.categoryID === id)
    const now = after.find((f) => f.categoryID === id)
    const name = nameOf(id)
    if (!was && now) changes.push(`Free listing in ${name}: ${describeAllowance(now)}`)
    else if (was && !now) changes.push(`Free listing in ${name}: no longer free`)
    else if (was && now && describeAllowance(was) !== describeAllowance(now))
      changes.push(`Free listing in ${name}: ${describeAllowance(was)} → ${describeAllowance(now)}`)
  }
  return changes
}
