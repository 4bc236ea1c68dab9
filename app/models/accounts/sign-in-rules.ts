/**
 * Sign-in rules of without zod: the sign-in page runs them in the browser, and its script stays small.
 */

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address'

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password'

export const PASSWORD_REQUIRED_MESSAGE = 'Please enter your password'

/** "{email} without spaces". */
const SIGN_IN_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const isSignInEmail = (email: string) => SIGN_IN_EMAIL_PATTERN.test(email)

export interface SignInProblem {
  field: 'email' | 'password'
  title: string
  description: string
}

/** The client-side checks of in their order; the server repeats them. Inputs are trimmed first. */
export function checkSignIn(input: { email?: unknown; password?: unknown }): SignInProblem | null {
  const email = typeof input.email === 'string' ? input.email.trim() : ''
  const password = typeof input.password === 'string' ? input.password.trim() : ''
  if (!email)
    return { field: 'email', title: 'Email Required', description: 'Please enter your email address' }
  if (!password)
    return { field: 'password', title: 'Password Required', description: PASSWORD_REQUIRED_MESSAGE }
  if (!isSignInEmail(email)) {
    return { field: 'email', title: 'Invalid Email', description: INVALID_EMAIL_MESSAGE }
  }
  return null
}

/** Trimmed credentials, or the first check that failed. */
export function parseSignIn(input: {
  email?: unknown
  password?: unknown
}):
  | { credentials: { email: string; password: string }; problem?: never }
  | { problem: SignInProblem; credentials?: never } {
  const problem = checkSignIn(input)
  if (problem) return { problem }
  return { credentials: { email: String(input.email).trim(), password: String(input.password).trim() } }
}
