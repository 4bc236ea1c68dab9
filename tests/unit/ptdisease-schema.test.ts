import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import {
  addDaysToIsoDate,
  buildPtdiseaseIntentSchema,
  buildPtdiseaseSchema,
  deriveComputedFields,
  isoDatePart,
  recordToInput,
  significantDigits,
} from '#app/models/patient-records/ptdisease-schema.ts'

const TODAY = '2025-06-15'
const schema = buildPtdiseaseSchema(() => TODAY)

const valid = { mrn: 'MRN-0001', disease: 'Type 2 diabetes mellitus' }

function errorsOf(input: Record<string, unknown>) {
  const result = schema.safeParse({ ...valid, ...input })
  if (result.success) return {}
  const errors: Record<string, string[]> = {}
  for (const issue of result.error.issues) (errors[issue.path.join('.')] ??= []).push(issue.message)
  return errors
}

function parsed(input: Record<string, unknown>) {
  const result = schema.safeParse({ ...valid, ...input })
  if (!result.success) throw new Error(`expected valid input: ${result.error.message}`)
  return result.data
}

describe('MRN', () => {
  test('is required', () => {
    expect(errorsOf({ mrn: undefined })).toEqual({ mrn: ['MRN is required'] })
    expect(errorsOf({ mrn: '' })).toEqual({ mrn: ['MRN is required'] })
    expect(errorsOf({ mrn: '   ' })).toEqual({ mrn: ['MRN is required'] })
    expect(errorsOf({ mrn: null })).toEqual({ mrn: ['MRN is required'] })
  })
  test('is trimmed', () => {
    expect(parsed({ mrn: '  A-17  ' }).mrn).toBe('A-17')
  })
  test('is at most 50 characters (after trimming)', () => {
    expect(parsed({ mrn: 'x'.repeat(50) }).mrn).toHaveLength(50)
    expect(parsed({ mrn: ` ${'x'.repeat(50)} ` }).mrn).toHaveLength(50)
    expect(errorsOf({ mrn: 'x'.repeat(51) })).toEqual({ mrn: ['MRN must be at most 50 characters'] })
  })
  test('a numeric MRN sent as a JSON number is kept as text', () => {
    expect(parsed({ mrn: 445566 }).mrn).toBe('445566')
  })
  test('something that is not text is refused', () => {
    expect(errorsOf({ mrn: { a: 1 } })).toEqual({ mrn: ['MRN must be text'] })
  })
})

describe('patient number', () => {
  test('is a positive whole number, given as a number or a string', () => {
    expect(parsed({ patientnumber: 1234 }).patientnumber).toBe(1234)
    expect(parsed({ patientnumber: ' 1234 ' }).patientnumber).toBe(1234)
  })
  test('may be left empty', () => {
    expect(parsed({}).patientnumber).toBeNull()
    expect(parsed({ patientnumber: '' }).patientnumber).toBeNull()
    expect(parsed({ patientnumber: null }).patientnumber).toBeNull()
  })
  test.each([
    [0, 'Patient number must be a positive whole number'],
    ['-5', 'Patient number must be a positive whole number'],
    ['12.5', 'Patient number must be a whole number'],
    ['12abc', 'Patient number must be a whole number'],
    ['1e3', 'Patient number must be a whole number'],
    [true, 'Patient number must be a whole number'],
    ['2147483648', 'Patient number is too large'],
  ])('%j is refused: %s', (value, message) => {
    expect(errorsOf({ patientnumber: value })).toEqual({ patientnumber: [message] })
  })
})

describe('sex', () => {
  test.each(['Male', 'Female', 'Other'])('%s is accepted', (sex) => {
    expect(parsed({ sexpatient: sex }).sexpatient).toBe(sex)
  })
  test('any letter case is stored in the canonical spelling', () => {
    expect(parsed({ sexpatient: 'female' }).sexpatient).toBe('Female')
  })
  test('may be left empty', () => {
    expect(parsed({ sexpatient: '' }).sexpatient).toBeNull()
  })
  test('anything else is refused', () => {
    expect(errorsOf({ sexpatient: 'M' })).toEqual({ sexpatient: ['Sex must be Male, Female or Other'] })
    expect(errorsOf({ sexpatient: 'Unknown' })).toEqual({ sexpatient: ['Sex must be Male, Female or Other'] })
  })
})

describe('date of birth', () => {
  test('a real date up to today is accepted', () => {
    expect(parsed({ dob: '1970-02-28' }).dob).toBe('1970-02-28')
    expect(parsed({ dob: TODAY }).dob).toBe(TODAY)
    expect(parsed({ dob: '1904-02-29' }).dob).toBe('1904-02-29')
  })
  test('an ISO timestamp keeps its date', () => {
    expect(parsed({ dob: '1970-02-28T00:00:00.000Z' }).dob).toBe('1970-02-28')
  })
  test('may be left empty', () => {
    expect(parsed({ dob: '' }).dob).toBeNull()
  })
  test.each(['1970-02-30', '1970-13-01', '1900-02-29', '02/28/1970', 'yesterday', '1970-2-3'])(
    '%s is not a valid date',
    (dob) => {
      expect(errorsOf({ dob })).toEqual({ dob: ['Date of birth must be a valid date'] })
    },
  )
  test('a date in the future is refused', () => {
    expect(errorsOf({ dob: '2025-06-16' })).toEqual({ dob: ['Date of birth cannot be in the future'] })
  })
  test('a year before 1900 (usually a typo) is refused', () => {
    expect(errorsOf({ dob: '0197-05-01' })).toEqual({ dob: ['Date of birth must be in 1900 or later'] })
  })
  test('"today" is asked at validation time, not when the schema is built', () => {
    let today = '2025-01-01'
    const moving = buildPtdiseaseSchema(() => today)
    expect(moving.safeParse({ ...valid, dob: '2025-01-02' }).success).toBe(false)
    today = '2025-01-02'
    expect(moving.safeParse({ ...valid, dob: '2025-01-02' }).success).toBe(true)
  })
})

describe('disease and codes', () => {
  test('disease is required and at most 255 characters', () => {
    expect(errorsOf({ disease: '  ' })).toEqual({ disease: ['Disease is required'] })
    expect(parsed({ disease: 'd'.repeat(255) }).disease).toHaveLength(255)
    expect(errorsOf({ disease: 'd'.repeat(256) })).toEqual({
      disease: ['Disease must be at most 255 characters'],
    })
  })
  test('disease code is optional, trimmed, upper-cased and at most 50 characters', () => {
    expect(parsed({}).diseasecode).toBe('')
    expect(parsed({ diseasecode: ' e11.9 ' }).diseasecode).toBe('E11.9')
    expect(errorsOf({ diseasecode: 'C'.repeat(51) })).toEqual({
      diseasecode: ['Disease code must be at most 50 characters'],
    })
  })
  test('long/short problem is at most 50 characters; organ system at most 100', () => {
    expect(parsed({ longshortproblem: 'Long term' }).longshortproblem).toBe('Long term')
    expect(errorsOf({ longshortproblem: 'l'.repeat(51) })).toEqual({
      longshortproblem: ['Long/short problem must be at most 50 characters'],
    })
    expect(parsed({ organsystem: 'o'.repeat(100) }).organsystem).toHaveLength(100)
    expect(errorsOf({ organsystem: 'o'.repeat(101) })).toEqual({
      organsystem: ['Organ system must be at most 100 characters'],
    })
  })
  test('comments are optional and at most 5000 characters', () => {
    expect(parsed({}).comment).toBe('')
    expect(errorsOf({ comment: 'c'.repeat(5001) })).toEqual({
      comment: ['Comments must be at most 5000 characters'],
    })
  })
})

describe('tracking dates', () => {
  test('must be real dates', () => {
    expect(errorsOf({ dateentered: '2025-04-31' })).toEqual({
      dateentered: ['Date entered must be a valid date'],
    })
    expect(errorsOf({ lastreviewed: 'soon' })).toEqual({
      lastreviewed: ['Last reviewed must be a valid date'],
    })
  })
  test('last reviewed may not be before the date entered', () => {
    expect(errorsOf({ dateentered: '2025-03-10', lastreviewed: '2025-03-09' })).toEqual({
      lastreviewed: ['Last reviewed cannot be before the date entered'],
    })
    expect(parsed({ dateentered: '2025-03-10', lastreviewed: '2025-03-10' }).lastreviewed).toBe('2025-03-10')
    expect(parsed({ lastreviewed: '2025-03-09' }).dateentered).toBeNull()
  })
  test("the order rule is reported together with the other fields' messages", () => {
    expect(
      errorsOf({ mrn: '', sexpatient: 'X', dateentered: '2025-03-10', lastreviewed: '2025-03-09' }),
    ).toEqual({
      mrn: ['MRN is required'],
      sexpatient: ['Sex must be Male, Female or Other'],
      lastreviewed: ['Last reviewed cannot be before the date entered'],
    })
  })
  test('an invalid date is not also compared', () => {
    expect(errorsOf({ dateentered: '2025-02-30', lastreviewed: '2025-01-01' })).toEqual({
      dateentered: ['Date entered must be a valid date'],
    })
  })
})

describe('review interval', () => {
  test('is a whole number of days from 0 to 3650, or empty', () => {
    expect(parsed({ reviewInterval: '0' }).reviewInterval).toBe(0)
    expect(parsed({ reviewInterval: 3650 }).reviewInterval).toBe(3650)
    expect(parsed({ reviewInterval: '' }).reviewInterval).toBeNull()
  })
  test.each([
    [3651, 'Review interval must be between 0 and 3650 days'],
    ['-1', 'Review interval must be between 0 and 3650 days'],
    ['30.5', 'Review interval must be a whole number'],
    ['thirty', 'Review interval must be a whole number'],
  ])('%j is refused', (value, message) => {
    expect(errorsOf({ reviewInterval: value })).toEqual({ reviewInterval: [message] })
  })
})

describe('questions to ask', () => {
  test('defaults to 0 and is a whole number of 0 or more', () => {
    expect(parsed({}).questionsToAsk).toBe(0)
    expect(parsed({ questionsToAsk: '' }).questionsToAsk).toBe(0)
    expect(parsed({ questionsToAsk: '3' }).questionsToAsk).toBe(3)
    expect(errorsOf({ questionsToAsk: -1 })).toEqual({
      questionsToAsk: ['Questions to ask cannot be negative'],
    })
    expect(errorsOf({ questionsToAsk: '2.5' })).toEqual({
      questionsToAsk: ['Questions to ask must be a whole number'],
    })
  })
})

describe('checkboxes', () => {
  const flags = [
    'choose',
    'finished',
    'dxusedforcharge',
    'resolved',
    'ptanswered',
    'CDMok',
    'controlledCDM',
  ] as const
  test('an unchecked box (absent) is false, a checked one ("on") true', () => {
    const off = parsed({})
    const on = parsed(Object.fromEntries(flags.map((f) => [f, 'on'])))
    for (const flag of flags) {
      expect(off[flag]).toBe(false)
      expect(on[flag]).toBe(true)
    }
  })
  test('JSON booleans and "true"/"false" are accepted', () => {
    expect(parsed({ resolved: true, finished: 'false', CDMok: 'true' })).toMatchObject({
      resolved: true,
      finished: false,
      CDMok: true,
    })
  })
  test('anything else is refused', () => {
    expect(errorsOf({ resolved: 'yes' })).toEqual({ resolved: ['Resolved must be checked or unchecked'] })
  })
})

describe('computed fields', () => {
  test('are derived: patient number + code, + significant digits, and date due', () => {
    expect(
      deriveComputedFields({
        patientnumber: 1234,
        diseasecode: 'E11.9',
        lastreviewed: '2025-01-31',
        reviewInterval: 30,
      }),
    ).toEqual({
      diseasecodesigdig: 'E11',
      ptnumberdiseasecode: '1234-E11.9',
      ptnumberdiseasecodesigdig: '1234-E11',
      dateDue: '2025-03-02',
    })
  })
  test('a code without a decimal part is its own significant digits', () => {
    expect(significantDigits('I10')).toBe('I10')
    expect(significantDigits(' J45.909 ')).toBe('J45')
  })
  test('combined keys stay empty without a patient number or a code; no date due without both its parts', () => {
    expect(
      deriveComputedFields({
        patientnumber: null,
        diseasecode: 'E11.9',
        lastreviewed: '2025-01-01',
        reviewInterval: null,
      }),
    ).toEqual({
      diseasecodesigdig: 'E11',
      ptnumberdiseasecode: '',
      ptnumberdiseasecodesigdig: '',
      dateDue: null,
    })
    expect(
      deriveComputedFields({ patientnumber: 7, diseasecode: '', lastreviewed: null, reviewInterval: 90 }),
    ).toEqual({
      diseasecodesigdig: '',
      ptnumberdiseasecode: '',
      ptnumberdiseasecodesigdig: '',
      dateDue: null,
    })
  })
  test('a review interval of 0 days is due on the review date; leap years count', () => {
    expect(addDaysToIsoDate('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDaysToIsoDate('2024-12-31', 0)).toBe('2024-12-31')
    expect(addDaysToIsoDate('2024-12-31', 365)).toBe('2025-12-31')
  })
  test('computed values sent by a client are dropped, never stored as typed', () => {
    const value = parsed({
      ptnumberdiseasecode: 'forged',
      ptnumberdiseasecodesigdig: 'forged',
      diseasecodesigdig: 'forged',
      dateDue: '2030-01-01',
      ptdiseaseID: 99,
    })
    expect(value).not.toHaveProperty('ptnumberdiseasecode')
    expect(value).not.toHaveProperty('dateDue')
    expect(value).not.toHaveProperty('ptdiseaseID')
  })
})

describe('form submissions (conform) and JSON give the same result', () => {
  test('a filled form parses to typed values', () => {
    const formData = new FormData()
    const fields = {
      mrn: ' MRN-9 ',
      patientnumber: '1234',
      sexpatient: 'Other',
      dob: '1980-05-05',
      disease: 'Asthma',
      diseasecode: 'j45.909',
      organsystem: 'Respiratory',
      dateentered: '2025-01-01',
      lastreviewed: '2025-02-01',
      reviewInterval: '90',
      questionsToAsk: '2',
      resolved: 'on',
      comment: '',
    }
    for (const [k, v] of Object.entries(fields)) formData.set(k, v)
    const submission = parseWithZod(formData, { schema, disableAutoCoercion: true })
    expect(submission.status).toBe('success')
    const json = schema.safeParse({
      ...fields,
      patientnumber: 1234,
      reviewInterval: 90,
      questionsToAsk: 2,
      resolved: true,
    })
    expect(submission.status === 'success' && submission.value).toEqual(json.data)
    expect(json.data).toMatchObject({
      mrn: 'MRN-9',
      patientnumber: 1234,
      diseasecode: 'J45.909',
      resolved: true,
      finished: false,
    })
  })
  test('errors are reported per field', () => {
    const formData = new FormData()
    formData.set('mrn', '')
    formData.set('disease', '')
    formData.set('reviewInterval', '5000')
    const submission = parseWithZod(formData, { schema, disableAutoCoercion: true })
    expect(submission.reply().error).toEqual({
      mrn: ['MRN is required'],
      disease: ['Disease is required'],
      reviewInterval: ['Review interval must be between 0 and 3650 days'],
    })
  })
})

describe('intent', () => {
  const intents = buildPtdiseaseIntentSchema(() => TODAY)
  test('create, update and delete are told apart by `intent`', () => {
    expect(intents.safeParse({ intent: 'create', ...valid }).success).toBe(true)
    expect(intents.safeParse({ intent: 'update', id: '5', ...valid }).data).toMatchObject({
      intent: 'update',
      id: 5,
    })
    expect(intents.safeParse({ intent: 'delete', id: 5 }).data).toEqual({ intent: 'delete', id: 5 })
  })
  test('an unknown intent, or update/delete without an id, is refused', () => {
    expect(intents.safeParse({ intent: 'purge', ...valid }).success).toBe(false)
    expect(intents.safeParse({ intent: 'delete' }).success).toBe(false)
    expect(intents.safeParse({ intent: 'update', id: 'abc', ...valid }).success).toBe(false)
  })
  test('update applies the same field rules', () => {
    const result = intents.safeParse({ intent: 'update', id: 1, mrn: '', disease: 'x' })
    expect(result.error?.issues.map((i) => i.message)).toEqual(['MRN is required'])
  })
})

test('a stored record round-trips as input', () => {
  const record = {
    ...parsed({ patientnumber: 5, diseasecode: 'E11.9', lastreviewed: '2025-01-01', reviewInterval: 10 }),
    ptdiseaseID: 1,
    created_at: new Date(),
    ...deriveComputedFields({
      patientnumber: 5,
      diseasecode: 'E11.9',
      lastreviewed: '2025-01-01',
      reviewInterval: 10,
    }),
  }
  expect(parsed(recordToInput(record))).toEqual(
    parsed({ patientnumber: 5, diseasecode: 'E11.9', lastreviewed: '2025-01-01', reviewInterval: 10 }),
  )
})

test('isoDatePart rejects impossible dates', () => {
  expect(isoDatePart('2024-02-29')).toBe('2024-02-29')
  expect(isoDatePart('2023-02-29')).toBeNull()
  expect(isoDatePart('2024-02-29T10:00:00+02:00')).toBe('2024-02-29')
  expect(isoDatePart('2024-02-29garbage')).toBeNull()
})
