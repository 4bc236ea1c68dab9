/**
 * Rules for business registration and sign-in, shared by the browser forms, the page actions and the
 * JSON API, so a rule and its message exist once.
 */
import '#app/zod-config.ts'
import { z } from 'zod'
import {
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  REGISTRATION_RULES,
  URL_FIELDS,
  withHttpsScheme,
} from '#app/models/accounts/registration-rules.ts'
import { checkSignIn, INVALID_EMAIL_MESSAGE } from '#app/models/accounts/sign-in-rules.ts'
import { PLAIN_EMAIL_PATTERN } from '#app/models/platform/email-address.ts'

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
  .pipe(z.email({ pattern: PLAIN_EMAIL_PATTERN, error: INVALID_EMAIL_MESSAGE }))

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

/** The registration payload with the registration rules. */
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
 * The sign-in form as conform reads it on the server: the checks of {@link checkSignIn}, one issue at a time
 * in their order, on the field they concern.
 */
export const signInFormSchema = z
  .object({
    email: z.string().default(''),
    password: z.string().default(''),
    redirectTo: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    const problem = checkSignIn(value)
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.description })
  })
