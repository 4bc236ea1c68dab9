/**
 * The sign-in through /api/login: the development sign-in's form, the form that links a provider sign-in to a
 * business by its password, and the sign-in set aside meanwhile (kept in a signed cookie).
 */
import '#app/zod-config.ts'
import { z } from 'zod'
import { PASSWORD_REQUIRED_MESSAGE } from '#app/models/accounts/sign-in-rules.ts'

/** /api/login without a provider, outside production: an email is all it takes. */
export const developmentSignInSchema = z.object({
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .toLowerCase()
    .max(255, 'Email too long')
    .pipe(z.email('Please enter a valid email address')),
  redirectTo: z.string().optional(),
})

/** /api/login/link: the business password, trimmed like the sign-in's; whether it is right is the sign-in's check. */
export const linkPasswordSchema = z.object({
  password: z.string({ error: PASSWORD_REQUIRED_MESSAGE }).trim().min(1, PASSWORD_REQUIRED_MESSAGE),
})

/** A provider sign-in waiting for the business password. */
export const pendingLinkSchema = z.object({
  profile: z.object({
    email: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    fullName: z.string().optional(),
    profileImageUrl: z.string().optional(),
  }),
  identity: z.object({ provider: z.enum(['oidc', 'development']), idToken: z.string().optional() }),
  businessID: z.number().int(),
  redirectTo: z.string().nullable(),
})
export type PendingLink = z.infer<typeof pendingLinkSchema>
