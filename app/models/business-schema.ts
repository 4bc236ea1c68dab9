/**
 * Rules for business registration and sign-in (spec §5), shared by the browser forms, the page actions and the
 * JSON API, so a rule and its message exist once.
 */
import '#app/zod-config.ts'
import { z } from 'zod'
import { PASSWORD_MAX, PASSWORD_MIN } from '#app/constants.ts'
import { URL_FIELDS } from './customer-card.ts'
import { checkSignIn, INVALID_EMAIL_MESSAGE } from './sign-in-rules.ts'

interface LengthRule {
  min?: number
  max: number
  minMessage?: string
  maxMessage: string
}

/** The registration screen's table (the stricter of the two readings in spec §5). */
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

type RequiredTextField =
  | 'businessName'
  | 'businessAddress'
  | 'businessCity'
  | 'businessState'
  | 'businessZip'
  | 'businessPhone'
  | 'businessPassword'
  | 'verifyPassword'
  | 'businessContact'

function requiredText(field: RequiredTextField) {
  const rule = REGISTRATION_RULES[field]
  // A missing field reads as an empty one, so it gets the same message.
  return z
    .string({ error: rule.minMessage })
    .trim()
    .min(rule.min, rule.minMessage)
    .max(rule.max, rule.maxMessage)
}

function optionalText(field: 'businessFax') {
  const rule = REGISTRATION_RULES[field]
  return z.string().trim().max(rule.max, rule.maxMessage).optional()
}

/** The length is checked after the scheme is added: that is what gets stored. */
function optionalUrl(field: (typeof URL_FIELDS)[number]) {
  const rule = REGISTRATION_RULES[field]
  return z.string().transform(withHttpsScheme).pipe(z.string().max(rule.max, rule.maxMessage)).optional()
}

const emailField = z
  .string({ error: INVALID_EMAIL_MESSAGE })
  .trim()
  .toLowerCase()
  .max(REGISTRATION_RULES.businessEmail.max, REGISTRATION_RULES.businessEmail.maxMessage)
  .pipe(z.email(INVALID_EMAIL_MESSAGE))

const registrationFields = z.object({
  businessName: requiredText('businessName'),
  businessAddress: requiredText('businessAddress'),
  businessCity: requiredText('businessCity'),
  businessState: requiredText('businessState'),
  businessZip: requiredText('businessZip'),
  businessPhone: requiredText('businessPhone'),
  businessFax: optionalText('businessFax'),
  businessEmail: emailField,
  businessPassword: requiredText('businessPassword'),
  verifyPassword: requiredText('verifyPassword'),
  businessContact: requiredText('businessContact'),
  businessWebsite: optionalUrl('businessWebsite'),
  facebookURL: optionalUrl('facebookURL'),
  instagramURL: optionalUrl('instagramURL'),
  linkedin: optionalUrl('linkedin'),
  youtubeURL: optionalUrl('youtubeURL'),
  xURL: optionalUrl('xURL'),
  tiktokURL: optionalUrl('tiktokURL'),
})

/** The registration payload (spec §3) with the rules of spec §5. */
export const registrationSchema = registrationFields.refine((v) => v.businessPassword === v.verifyPassword, {
  message: PASSWORDS_DO_NOT_MATCH_MESSAGE,
  path: ['verifyPassword'],
  // Compare whenever both passwords arrived, even if other fields are wrong, so every problem shows at once.
  when: (payload) => {
    const value = payload.value as { businessPassword?: unknown; verifyPassword?: unknown } | undefined
    return typeof value?.businessPassword === 'string' && typeof value.verifyPassword === 'string'
  },
})

export type RegistrationInput = z.input<typeof registrationSchema>
export type Registration = z.output<typeof registrationSchema>

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

/**
 * The sign-in form as conform reads it on the server: the spec §5 checks of {@link checkSignIn}, one issue at a time
 * in their order, on the field they concern.
 */
export const signInFormSchema = z
  .object({ email: z.string().default(''), password: z.string().default(''), redirectTo: z.string().optional() })
  .superRefine((value, ctx) => {
    const problem = checkSignIn(value)
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.description })
  })
