/**
 * The patient disease record's validation, shared by the form (client), the page actions and /api/ptdisease.
 * Inputs may arrive as form strings or as JSON values (dates and numeric ids may be strings), so every field
 * normalises its input before it is checked; the API and the form therefore accept and reject the same things.
 */
import '#app/zod-config.ts'
import { z } from 'zod'

export const PTDISEASE_SEXES = ['Male', 'Female', 'Other'] as const
export type PtdiseaseSex = (typeof PTDISEASE_SEXES)[number]

/** Postgres `integer` upper bound: anything larger would be a database error instead of a message. */
export const INT4_MAX = 2_147_483_647

export const PTDISEASE_LIMITS = {
  mrn: 50,
  disease: 255,
  code: 50,
  organsystem: 100,
  longshortproblem: 50,
  comment: 5000,
  reviewIntervalMaxDays: 3650,
  questionsToAskMax: INT4_MAX,
  patientnumberMax: INT4_MAX,
  /** A birth date before this is almost always a mistyped year in a date input. */
  dobEarliest: '1900-01-01',
} as const

/** Texts the page, the toasts and the API share. */
export const PTDISEASE_MESSAGES = {
  created: 'Patient disease record created',
  updated: 'Patient disease record updated',
  deleted: 'Patient disease record deleted',
  notFound: 'Patient disease record not found',
  invalidForm: 'Please correct the highlighted fields.',
  unknownIntent: 'Unknown intent',
  idMismatch: 'The record id does not match this page',
} as const

export const PTDISEASE_PAGE_SIZE = 50
export const PTDISEASE_SEARCH_MAX = 100

export const PTDISEASE_BOOLEAN_FIELDS = [
  'choose',
  'finished',
  'dxusedforcharge',
  'resolved',
  'ptanswered',
  'CDMok',
  'controlledCDM',
] as const

/** Human names of the record's fields (form labels, error messages, audit history). */
export const PTDISEASE_FIELD_LABELS = {
  mrn: 'MRN',
  patientnumber: 'Patient Number',
  sexpatient: 'Sex',
  dob: 'Date of Birth',
  disease: 'Disease',
  diseasecode: 'Disease Code',
  diseasecodesigdig: 'Disease Code (significant digits)',
  organsystem: 'Organ System',
  longshortproblem: 'Long/Short Problem',
  ptnumberdiseasecode: 'Patient # + Disease Code',
  ptnumberdiseasecodesigdig: 'Patient # + Code Significant Digits',
  dateentered: 'Date Entered',
  lastreviewed: 'Last Reviewed',
  reviewInterval: 'Review Interval (days)',
  dateDue: 'Date Due',
  comment: 'Comments',
  choose: 'Choose',
  finished: 'Finished',
  dxusedforcharge: 'Dx Used for Charge',
  resolved: 'Resolved',
  ptanswered: 'Patient Answered',
  CDMok: 'CDM OK',
  controlledCDM: 'Controlled CDM',
  questionsToAsk: 'Questions to Ask',
} as const

export type PtdiseaseFieldName = keyof typeof PTDISEASE_FIELD_LABELS

// ---------------------------------------------------------------------------------------------------------------
// Calendar dates (yyyy-mm-dd strings, no time zone arithmetic)

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** The yyyy-mm-dd part of a real calendar date (rejects 2025-02-30), or null. Times after the date are dropped. */
export function isoDatePart(value: string): string | null {
  const match = ISO_DATE.exec(value)
  if (!match) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null
  return `${match[1]}-${match[2]}-${match[3]}`
}

export function addDaysToIsoDate(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d + days))
  const year = String(date.getUTCFullYear()).padStart(4, '0')
  const month = String(date.getUTCMonth() + 1).padStart(2, '0')
  const day = String(date.getUTCDate()).padStart(2, '0')
  return `${year}-${month}-${day}`
}

// ---------------------------------------------------------------------------------------------------------------
// Input normalisation: form strings and JSON values to one shape

function isBlank(value: unknown) {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
}

function toText(value: unknown) {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return value
}

function toOptionalText(value: unknown) {
  return isBlank(value) ? '' : toText(value)
}

function toOptional(value: unknown) {
  return isBlank(value) ? undefined : toText(value)
}

function toOptionalNumber(value: unknown) {
  if (isBlank(value)) return undefined
  if (typeof value === 'string' && /^[+-]?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value.trim())
  return value
}

function toBoolean(value: unknown) {
  if (isBlank(value) || value === false || value === 'false' || value === 'off') return false
  if (value === true || value === 'on' || value === 'true') return true
  return value
}

function requiredText(label: string, max: number) {
  const required = `${label} is required`
  return z.preprocess(
    toText,
    z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? required : `${label} must be text`,
      })
      .min(1, required)
      .max(max, `${label} must be at most ${max} characters`),
  )
}

function optionalText(label: string, max: number, normalise: (value: string) => string = (v) => v) {
  return z.preprocess(
    toOptionalText,
    z
      .string({ error: `${label} must be text` })
      .max(max, `${label} must be at most ${max} characters`)
      .transform(normalise)
      .default(''),
  )
}

function optionalDate(label: string, refine?: (date: string, ctx: z.RefinementCtx) => void) {
  const invalid = `${label} must be a valid date`
  return z
    .preprocess(
      toOptional,
      z
        .string({ error: invalid })
        .transform((value, ctx) => {
          const date = isoDatePart(value)
          if (!date) {
            ctx.addIssue({ code: 'custom', message: invalid })
            return z.NEVER
          }
          refine?.(date, ctx)
          return date
        })
        .optional(),
    )
    .transform((value) => value ?? null)
}

function wholeNumber(label: string, min: number, max: number, rangeMessage: string) {
  const notWhole = `${label} must be a whole number`
  return z
    .number({ error: notWhole })
    .int(notWhole)
    .min(min, rangeMessage)
    .max(max, max === INT4_MAX ? `${label} is too large` : rangeMessage)
}

function canonicalSex(value: unknown) {
  const text = toOptional(value)
  if (typeof text !== 'string') return text
  return PTDISEASE_SEXES.find((sex) => sex.toLowerCase() === text.toLowerCase()) ?? text
}

// ---------------------------------------------------------------------------------------------------------------
// The schema

function fieldShape(today: () => string) {
  const booleanField = (name: (typeof PTDISEASE_BOOLEAN_FIELDS)[number]) =>
    z.preprocess(
      toBoolean,
      z.boolean({ error: `${PTDISEASE_FIELD_LABELS[name]} must be checked or unchecked` }).default(false),
    )
  return {
    mrn: requiredText('MRN', PTDISEASE_LIMITS.mrn),
    patientnumber: z
      .preprocess(
        toOptionalNumber,
        wholeNumber(
          'Patient number',
          1,
          PTDISEASE_LIMITS.patientnumberMax,
          'Patient number must be a positive whole number',
        ).optional(),
      )
      .transform((value) => value ?? null),
    sexpatient: z
      .preprocess(
        canonicalSex,
        z.enum(PTDISEASE_SEXES, { error: 'Sex must be Male, Female or Other' }).optional(),
      )
      .transform((value) => value ?? null),
    dob: optionalDate('Date of birth', (date, ctx) => {
      if (date > today()) ctx.addIssue({ code: 'custom', message: 'Date of birth cannot be in the future' })
      else if (date < PTDISEASE_LIMITS.dobEarliest) {
        ctx.addIssue({ code: 'custom', message: 'Date of birth must be in 1900 or later' })
      }
    }),
    disease: requiredText('Disease', PTDISEASE_LIMITS.disease),
    // ICD codes are case-insensitive; one spelling keeps "patient + code" keys comparable.
    diseasecode: optionalText('Disease code', PTDISEASE_LIMITS.code, (v) => v.toUpperCase()),
    organsystem: optionalText('Organ system', PTDISEASE_LIMITS.organsystem),
    longshortproblem: optionalText('Long/short problem', PTDISEASE_LIMITS.longshortproblem),
    dateentered: optionalDate('Date entered'),
    lastreviewed: optionalDate('Last reviewed'),
    reviewInterval: z
      .preprocess(
        toOptionalNumber,
        wholeNumber(
          'Review interval',
          0,
          PTDISEASE_LIMITS.reviewIntervalMaxDays,
          `Review interval must be between 0 and ${PTDISEASE_LIMITS.reviewIntervalMaxDays} days`,
        ).optional(),
      )
      .transform((value) => value ?? null),
    comment: optionalText('Comments', PTDISEASE_LIMITS.comment),
    choose: booleanField('choose'),
    finished: booleanField('finished'),
    dxusedforcharge: booleanField('dxusedforcharge'),
    resolved: booleanField('resolved'),
    ptanswered: booleanField('ptanswered'),
    CDMok: booleanField('CDMok'),
    controlledCDM: booleanField('controlledCDM'),
    questionsToAsk: z.preprocess(
      toOptionalNumber,
      wholeNumber(
        'Questions to ask',
        0,
        PTDISEASE_LIMITS.questionsToAskMax,
        'Questions to ask cannot be negative',
      ).default(0),
    ),
  }
}

const isValidDate = (value: unknown): value is string =>
  typeof value === 'string' && isoDatePart(value) === value

/**
 * Rules across fields. They run even when another field failed, so every message shows at once; the values
 * are then only partly checked, hence the guards.
 */
function withCrossFieldRules<T extends z.ZodType>(schema: T) {
  return schema.refine(
    (value) => {
      const { dateentered, lastreviewed } = value as { dateentered?: unknown; lastreviewed?: unknown }
      return !(isValidDate(dateentered) && isValidDate(lastreviewed) && lastreviewed < dateentered)
    },
    {
      path: ['lastreviewed'],
      message: 'Last reviewed cannot be before the date entered',
      when: (payload) => typeof payload.value === 'object' && payload.value !== null,
    },
  )
}

/** The record's editable fields; computed fields sent by a client are dropped (they are derived, never typed). */
export function buildPtdiseaseSchema(today: () => string) {
  return withCrossFieldRules(z.object(fieldShape(today)))
}

const recordId = z.preprocess(
  toOptionalNumber,
  z
    .number({ error: 'Record id is required' })
    .int('Record id must be a whole number')
    .min(1, 'Record id must be a whole number')
    .max(INT4_MAX, 'Record id must be a whole number'),
)

export const PTDISEASE_INTENTS = ['create', 'update', 'delete'] as const
export type PtdiseaseIntent = (typeof PTDISEASE_INTENTS)[number]

export function isPtdiseaseIntent(value: unknown): value is PtdiseaseIntent {
  return typeof value === 'string' && (PTDISEASE_INTENTS as readonly string[]).includes(value)
}

/** The page's forms: one `intent` field chooses create, update or delete. */
export function buildPtdiseaseIntentSchema(today: () => string) {
  const shape = fieldShape(today)
  return z.discriminatedUnion('intent', [
    withCrossFieldRules(z.object({ intent: z.literal('create'), ...shape })),
    withCrossFieldRules(z.object({ intent: z.literal('update'), id: recordId, ...shape })),
    z.object({ intent: z.literal('delete'), id: recordId }),
  ])
}

export type PtdiseaseInput = z.output<ReturnType<typeof buildPtdiseaseSchema>>

// ---------------------------------------------------------------------------------------------------------------
// Computed fields

export interface PtdiseaseComputed {
  diseasecodesigdig: string
  ptnumberdiseasecode: string
  ptnumberdiseasecodesigdig: string
  dateDue: string | null
}

/** The code's significant digits: everything before the decimal part ("E11.9" → "E11"). */
export function significantDigits(code: string): string {
  return code.trim().split('.')[0]!.trim()
}

/**
 * The fields derived on the server: "patient number-disease code" ("1234-E11.9"), the same with the code's
 * significant digits ("1234-E11"), and the date due (last reviewed + review interval days).
 * A combined key needs both parts; without one of them it stays empty.
 */
export function deriveComputedFields(input: {
  patientnumber: number | null
  diseasecode: string
  lastreviewed: string | null
  reviewInterval: number | null
}): PtdiseaseComputed {
  const code = input.diseasecode.trim()
  const sigdig = significantDigits(code)
  const hasPatient = input.patientnumber !== null
  return {
    diseasecodesigdig: sigdig,
    ptnumberdiseasecode: hasPatient && code ? `${input.patientnumber}-${code}` : '',
    ptnumberdiseasecodesigdig: hasPatient && sigdig ? `${input.patientnumber}-${sigdig}` : '',
    dateDue:
      input.lastreviewed && input.reviewInterval !== null
        ? addDaysToIsoDate(input.lastreviewed, input.reviewInterval)
        : null,
  }
}

/** A stored record (or anything with the editable fields), read loosely: the schema checks the values. */
export type PtdiseaseInputValues = { [K in keyof PtdiseaseInput]: unknown }

export function recordToInput(record: PtdiseaseInputValues): PtdiseaseInputValues {
  return {
    mrn: record.mrn,
    patientnumber: record.patientnumber,
    sexpatient: record.sexpatient,
    dob: record.dob,
    disease: record.disease,
    diseasecode: record.diseasecode,
    organsystem: record.organsystem,
    longshortproblem: record.longshortproblem,
    dateentered: record.dateentered,
    lastreviewed: record.lastreviewed,
    reviewInterval: record.reviewInterval,
    comment: record.comment,
    choose: record.choose,
    finished: record.finished,
    dxusedforcharge: record.dxusedforcharge,
    resolved: record.resolved,
    ptanswered: record.ptanswered,
    CDMok: record.CDMok,
    controlledCDM: record.controlledCDM,
    questionsToAsk: record.questionsToAsk,
  }
}
