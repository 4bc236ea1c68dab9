/**
 * The registration rules without zod: the registration page checks fields in the browser with them, and
 * its script stays small. The server's schema (business-schema.ts) is built from the same table and decides.
 */
import { PASSWORD_MAX, PASSWORD_MIN } from '#app/constants.ts'
import { URL_FIELDS } from '#app/models/ads/card-business.ts'
import { INVALID_EMAIL_MESSAGE, isSignInEmail } from '#app/models/accounts/sign-in-rules.ts'

interface LengthRule {
  min?: number
  max: number
  minMessage?: string
  maxMessage: string
}

/** The registration screen's table (the stricter reading of each rule). */
export const REGISTRATION_RULES = {
  businessName: {
    min: 2,
    max: 255,
    minMessage: 'Business name must be at least 2 characters',
    maxMessage: 'Business name too long',
  },
  businessAddress: {
    min: 5,
    max: 250,
    minMessage: 'Address must be at least 5 characters',
    maxMessage: 'Address too long',
  },
  businessCity: {
    min: 2,
    max: 250,
    minMessage: 'City must be at least 2 characters',
    maxMessage: 'City too long',
  },
  businessState: {
    min: 2,
    max: 250,
    minMessage: 'State must be at least 2 characters',
    maxMessage: 'State too long',
  },
  businessZip: {
    min: 5,
    max: 50,
    minMessage: 'ZIP code must be at least 5 characters',
    maxMessage: 'ZIP code too long',
  },
  businessPhone: {
    min: 1,
    max: 50,
    minMessage: 'Business phone is required',
    maxMessage: 'Phone number too long',
  },
  businessFax: { max: 50, maxMessage: 'Fax number too long' },
  businessEmail: { max: 150, maxMessage: 'Email too long' },
  businessPassword: {
    min: PASSWORD_MIN,
    max: PASSWORD_MAX,
    minMessage: `Password must be at least ${PASSWORD_MIN} characters`,
    maxMessage: 'Password too long',
  },
  verifyPassword: {
    min: PASSWORD_MIN,
    max: PASSWORD_MAX,
    minMessage: `Verify password must be at least ${PASSWORD_MIN} characters`,
    maxMessage: 'Verify password too long',
  },
  businessContact: {
    min: 2,
    max: 250,
    minMessage: 'Contact name must be at least 2 characters',
    maxMessage: 'Contact name too long',
  },
  businessWebsite: { max: 255, maxMessage: 'Website URL too long' },
  facebookURL: { max: 255, maxMessage: 'Facebook URL too long' },
  instagramURL: { max: 255, maxMessage: 'Instagram URL too long' },
  linkedin: { max: 255, maxMessage: 'LinkedIn URL too long' },
  youtubeURL: { max: 255, maxMessage: 'YouTube URL too long' },
  xURL: { max: 255, maxMessage: 'X (Twitter) URL too long' },
  tiktokURL: { max: 255, maxMessage: 'TikTok URL too long' },
} as const satisfies Record<string, LengthRule>

export type RegistrationField = keyof typeof REGISTRATION_RULES

export const PASSWORDS_DO_NOT_MATCH_MESSAGE = 'Passwords do not match'
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists'

// The card's web-address fields are the registration's too (each gets `https://` when typed without a scheme).
export { URL_FIELDS }

/** `example.com` → `https://example.com`; a value with a scheme (or an empty one) is left as it is. */
export function withHttpsScheme(value: string) {
  const trimmed = value.trim()
  if (trimmed === '' || /^[a-z][a-z\d+.-]*:\/\//i.test(trimmed)) return trimmed
  return `https://${trimmed}`
}

/**
 * Native length constraints for the registration inputs. conform's getZodConstraint reads lengths from zod's
 * internal "bag", which zod 4.6 no longer fills, so they come from the rule table instead.
 */
export function registrationLengthConstraints() {
  return Object.fromEntries(
    Object.entries(REGISTRATION_RULES).map(([field, rule]: [string, LengthRule]) => [
      field,
      { minLength: rule.min, maxLength: rule.max },
    ]),
  ) as Record<RegistrationField, { minLength?: number; maxLength: number }>
}

const isUrlField = (field: string): field is (typeof URL_FIELDS)[number] =>
  (URL_FIELDS as readonly string[]).includes(field)

/**
 * The first problem with one registration field, given every field's value (the second password is compared with
 * the first), or undefined. The server repeats every check.
 */
export function registrationFieldProblem(
  field: RegistrationField,
  values: Partial<Record<string, string>>,
): string | undefined {
  const rule: LengthRule = REGISTRATION_RULES[field]
  const raw = values[field] ?? ''
  const value = isUrlField(field) ? withHttpsScheme(raw) : raw.trim()
  if (rule.min !== undefined && value.length < rule.min) return rule.minMessage
  if (value.length > rule.max) return rule.maxMessage
  // The browser's check is the looser sign-in one (it never refuses what the server takes); the server's schema
  // holds the address to a plain one.
  if (field === 'businessEmail' && !isSignInEmail(value)) return INVALID_EMAIL_MESSAGE
  if (field === 'verifyPassword' && value !== (values.businessPassword ?? '').trim())
    return PASSWORDS_DO_NOT_MATCH_MESSAGE
  return undefined
}

/** Every field's first problem (only the fields with one). */
export function registrationProblems(values: Partial<Record<string, string>>) {
  const problems: Partial<Record<RegistrationField, string>> = {}
  for (const field of Object.keys(REGISTRATION_RULES) as RegistrationField[]) {
    const problem = registrationFieldProblem(field, values)
    if (problem) problems[field] = problem
  }
  return problems as Record<string, string>
}

/** The fields a registration cannot do without (the email has no minimum length, but is required). */
export const isRequiredRegistrationField = (field: RegistrationField) =>
  field === 'businessEmail' || (REGISTRATION_RULES[field] as LengthRule).min !== undefined
