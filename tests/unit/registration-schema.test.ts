import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { checkSignIn, parseSignIn } from '#app/models/accounts/sign-in-rules.ts'
import { registrationSchema, type RegistrationInput } from '#app/models/accounts/business-schema.ts'
import {
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  REGISTRATION_RULES,
  registrationFieldProblem,
  registrationLengthConstraints,
  URL_FIELDS,
  withHttpsScheme,
  type RegistrationField,
} from '#app/models/accounts/registration-rules.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'

const valid: RegistrationInput = registrationFields('owner@bluedoor.example', {
  businessPassword: 'secret1',
  verifyPassword: 'secret1',
})

function errorsFor(input: Record<string, unknown>) {
  const result = registrationSchema.safeParse(input)
  if (result.success) return {}
  const errors: Record<string, string[]> = {}
  for (const issue of result.error.issues) (errors[issue.path.join('.')] ??= []).push(issue.message)
  return errors
}

/** The message a field gets for `value`, with every other field valid. */
function messagesFor(field: string, value: unknown) {
  const input: Record<string, unknown> = { ...valid, [field]: value }
  if (field === 'businessPassword') input.verifyPassword = value
  if (field === 'verifyPassword') input.businessPassword = value
  return errorsFor(input)[field] ?? []
}

const x = (n: number) => 'x'.repeat(n)

describe('registration rules (spec §5, the stricter table)', () => {
  test('a complete, valid payload passes', () => {
    expect(registrationSchema.safeParse(valid).success).toBe(true)
  })

  const lengthRules = [
    ['businessName', 2, 255, 'Business name must be at least 2 characters', 'Business name too long'],
    ['businessAddress', 5, 250, 'Address must be at least 5 characters', 'Address too long'],
    ['businessCity', 2, 250, 'City must be at least 2 characters', 'City too long'],
    ['businessState', 2, 250, 'State must be at least 2 characters', 'State too long'],
    ['businessZip', 5, 50, 'ZIP code must be at least 5 characters', 'ZIP code too long'],
    ['businessPhone', 1, 50, 'Business phone is required', 'Phone number too long'],
    ['businessPassword', 6, 50, 'Password must be at least 6 characters', 'Password too long'],
    ['verifyPassword', 6, 50, 'Verify password must be at least 6 characters', 'Verify password too long'],
    ['businessContact', 2, 250, 'Contact name must be at least 2 characters', 'Contact name too long'],
  ] as const

  describe.each(lengthRules)('%s: %i–%i characters', (field, min, max, minMessage, maxMessage) => {
    test(`${min - 1} characters → "${minMessage}"`, () => {
      expect(messagesFor(field, x(min - 1))).toEqual([minMessage])
    })
    test(`${min} and ${max} characters pass`, () => {
      expect(messagesFor(field, x(min))).toEqual([])
      expect(messagesFor(field, x(max))).toEqual([])
    })
    test(`${max + 1} characters → "${maxMessage}"`, () => {
      expect(messagesFor(field, x(max + 1))).toEqual([maxMessage])
    })
    test('missing or blank reads as empty', () => {
      const { [field]: _omitted, ...rest } = valid as Record<string, unknown>
      if (field === 'businessPassword') rest.verifyPassword = undefined
      if (field === 'verifyPassword') rest.businessPassword = undefined
      expect(errorsFor(rest)[field]).toEqual([minMessage])
      expect(messagesFor(field, ' '.repeat(min + 2))).toEqual([minMessage])
    })
    test('the table and the constraint for native inputs agree', () => {
      expect(REGISTRATION_RULES[field]).toMatchObject({ min, max, minMessage, maxMessage })
      expect(registrationLengthConstraints()[field]).toEqual({ minLength: min, maxLength: max })
    })
  })

  test('values are trimmed before they are measured', () => {
    expect(messagesFor('businessName', ` ${x(255)} `)).toEqual([])
    expect(registrationSchema.parse({ ...valid, businessName: '  Blue Door  ' }).businessName).toBe(
      'Blue Door',
    )
  })

  describe('businessFax: optional, at most 50', () => {
    test('absent or empty passes', () => {
      expect(messagesFor('businessFax', undefined)).toEqual([])
      expect(messagesFor('businessFax', '')).toEqual([])
    })
    test('50 passes, 51 → "Fax number too long"', () => {
      expect(messagesFor('businessFax', x(50))).toEqual([])
      expect(messagesFor('businessFax', x(51))).toEqual(['Fax number too long'])
    })
  })

  describe('businessEmail: a valid email of at most 150 characters', () => {
    const at = (total: number) => `${x(total - '@example.com'.length)}@example.com`
    test.each(['', 'plainaddress', 'a@b', 'two words@example.com', '@example.com'])(
      '%j → invalid',
      (value) => {
        expect(messagesFor('businessEmail', value)).toEqual(['Please enter a valid email address'])
      },
    )
    test('missing → invalid', () => {
      const { businessEmail: _omitted, ...rest } = valid
      expect(errorsFor(rest).businessEmail).toEqual(['Please enter a valid email address'])
    })
    test('150 passes, 151 → "Email too long"', () => {
      expect(messagesFor('businessEmail', at(150))).toEqual([])
      expect(messagesFor('businessEmail', at(151))).toEqual(['Email too long'])
    })
    test('stored trimmed and lower-cased', () => {
      expect(
        registrationSchema.parse({ ...valid, businessEmail: '  Owner@BlueDoor.Example ' }).businessEmail,
      ).toBe('owner@bluedoor.example')
    })
  })

  describe('verifyPassword must equal businessPassword', () => {
    test('"Passwords do not match" shows on verifyPassword', () => {
      const errors = errorsFor({ ...valid, businessPassword: 'secret1', verifyPassword: 'secret2' })
      expect(errors).toEqual({ verifyPassword: [PASSWORDS_DO_NOT_MATCH_MESSAGE] })
    })
    test('it shows even while other fields are wrong', () => {
      const errors = errorsFor({
        ...valid,
        businessName: 'B',
        businessPassword: 'abc',
        verifyPassword: 'abd',
      })
      expect(errors.verifyPassword).toContain(PASSWORDS_DO_NOT_MATCH_MESSAGE)
      expect(errors.businessName).toEqual(['Business name must be at least 2 characters'])
    })
    test('equal passwords pass', () => {
      expect(errorsFor({ ...valid, businessPassword: 'same-secret', verifyPassword: 'same-secret' })).toEqual(
        {},
      )
    })
  })

  const urlMessages = {
    businessWebsite: 'Website URL too long',
    facebookURL: 'Facebook URL too long',
    instagramURL: 'Instagram URL too long',
    linkedin: 'LinkedIn URL too long',
    youtubeURL: 'YouTube URL too long',
    xURL: 'X (Twitter) URL too long',
    tiktokURL: 'TikTok URL too long',
  } as const

  describe.each(URL_FIELDS)('%s: optional, at most 255 after https:// is added', (field) => {
    test('absent or empty passes', () => {
      expect(messagesFor(field, undefined)).toEqual([])
      expect(messagesFor(field, '')).toEqual([])
    })
    test('255 passes, 256 is too long', () => {
      const base = 'https://'
      expect(messagesFor(field, base + x(255 - base.length))).toEqual([])
      expect(messagesFor(field, base + x(256 - base.length))).toEqual([urlMessages[field]])
    })
    test('the added scheme counts towards the limit', () => {
      expect(messagesFor(field, x(250))).toEqual([urlMessages[field]])
    })
    test('a value without a scheme is stored with https://', () => {
      expect(registrationSchema.parse({ ...valid, [field]: 'example.com/page' })[field]).toBe(
        'https://example.com/page',
      )
    })
  })

  test('form posts (conform) read empty optional fields as absent', () => {
    const form = new FormData()
    for (const [k, v] of Object.entries(valid)) form.set(k, String(v))
    form.set('businessFax', '')
    form.set('businessWebsite', 'bluedoor.example')
    form.set('facebookURL', '')
    const submission = parseWithZod(form, { schema: registrationSchema })
    expect(submission.status).toBe('success')
    if (submission.status === 'success') {
      expect(submission.value.businessFax).toBeUndefined()
      expect(submission.value.facebookURL).toBeUndefined()
      expect(submission.value.businessWebsite).toBe('https://bluedoor.example')
    }
  })

  test('an empty form post gets each field’s own message', () => {
    const submission = parseWithZod(new FormData(), { schema: registrationSchema })
    expect(submission.status).toBe('error')
    expect(submission.status === 'error' ? submission.error : null).toMatchObject({
      businessName: ['Business name must be at least 2 characters'],
      businessPhone: ['Business phone is required'],
      businessEmail: ['Please enter a valid email address'],
      businessPassword: ['Password must be at least 6 characters'],
      verifyPassword: ['Verify password must be at least 6 characters'],
    })
  })
})

describe('withHttpsScheme', () => {
  test.each([
    ['example.com', 'https://example.com'],
    ['  www.example.com/a?b=c ', 'https://www.example.com/a?b=c'],
    ['http://example.com', 'http://example.com'],
    ['HTTPS://Example.com', 'HTTPS://Example.com'],
    ['ftp://files.example.com', 'ftp://files.example.com'],
    ['', ''],
    ['   ', ''],
    ['localhost:3000', 'https://localhost:3000'],
  ])('%j → %j', (input, expected) => {
    expect(withHttpsScheme(input)).toBe(expected)
  })
})

describe('sign-in checks (spec §5: in this order, inputs trimmed)', () => {
  const emailRequired = {
    field: 'email',
    title: 'Email Required',
    description: 'Please enter your email address',
  }
  const passwordRequired = {
    field: 'password',
    title: 'Password Required',
    description: 'Please enter your password',
  }
  const invalidEmail = {
    field: 'email',
    title: 'Invalid Email',
    description: 'Please enter a valid email address',
  }

  test.each([
    [{ email: '', password: '' }, emailRequired],
    [{ email: '   ', password: 'secret' }, emailRequired],
    [{ email: 'not-an-email', password: '' }, passwordRequired],
    [{ email: 'owner@example.com', password: '   ' }, passwordRequired],
    [{ email: 'not-an-email', password: 'secret' }, invalidEmail],
    [{ email: 'two words@example.com', password: 'secret' }, invalidEmail],
    [{ email: 'owner@example', password: 'secret' }, invalidEmail],
    [{ email: undefined, password: 'secret' }, emailRequired],
    [{ email: 'owner@example.com', password: 42 }, passwordRequired],
  ])('%j → %j', (input, expected) => {
    expect(checkSignIn(input)).toEqual(expected)
  })

  test('valid input passes, trimmed', () => {
    expect(checkSignIn({ email: ' owner@example.com ', password: ' secret ' })).toBeNull()
    expect(parseSignIn({ email: ' owner@example.com ', password: ' secret ' })).toEqual({
      credentials: { email: 'owner@example.com', password: 'secret' },
    })
  })
})

describe('the browser’s registration check agrees with the server’s schema', () => {
  const fields = Object.keys(REGISTRATION_RULES) as RegistrationField[]
  const candidates = (field: RegistrationField) => {
    const rule: { min?: number; max: number } = REGISTRATION_RULES[field]
    const lengths = [0, 1, rule.min ?? 0, (rule.min ?? 1) - 1, rule.max, rule.max + 1, rule.max - 8]
    const values = lengths.filter((n) => n >= 0).flatMap((n) => [x(n), `  ${x(n)}  `])
    if (field === 'businessEmail')
      values.push('owner@bluedoor.example', 'not-an-email', ' Owner@Bluedoor.Example ', `${x(140)}@a.example`)
    if (URL_FIELDS.includes(field as (typeof URL_FIELDS)[number]))
      values.push('example.com', 'https://a.example')
    return values
  }

  test.each(fields)('%s', (field) => {
    for (const value of candidates(field)) {
      const input: Record<string, string> = { ...(valid as Record<string, string>), [field]: value }
      if (field === 'businessPassword') input.verifyPassword = value
      const server = errorsFor(input)[field]?.[0]
      expect(registrationFieldProblem(field, input), `${field} = "${value}"`).toBe(server)
    }
  })

  test('different passwords are caught in the browser as on the server', () => {
    const input = { ...(valid as Record<string, string>), verifyPassword: 'secret2' }
    expect(registrationFieldProblem('verifyPassword', input)).toBe(errorsFor(input).verifyPassword?.[0])
    expect(
      registrationFieldProblem('verifyPassword', { ...input, verifyPassword: ' secret1 ' }),
    ).toBeUndefined()
  })
})
