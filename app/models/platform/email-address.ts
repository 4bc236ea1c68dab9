/**
 * The one rule of an email address typed into a form (subscriptions, registration, an ad's contact), without zod so
 * the browser checks it too: a plain address, local part @ domain, and nothing else. A display name, angle brackets,
 * quotes or a comment ("box@example.com(7)", "x<box@example.com>") are valid in a mail header but make the address
 * mean something else than what is shown, so none is taken.
 */

/**
 * Letters, digits and `_ ' + -` in dot-separated parts before the @, then host labels and a top-level domain of
 * letters: the address zod's `z.email()` accepts, so the schemas built on either agree.
 */
export const PLAIN_EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/

/** What turns an address into a header value: a name, brackets, quotes, a comment, a list, inner spaces. */
const NOT_AN_ADDRESS_ALONE = /[<>()[\]"\\,;:\s]/

export function isPlainEmail(value: string) {
  return PLAIN_EMAIL_PATTERN.test(value)
}

/** The address comes with something around it (a name, brackets, a comment): worth its own message. */
export function hasMoreThanAnAddress(value: string) {
  return NOT_AN_ADDRESS_ALONE.test(value.trim())
}

/** An address as it is compared and stored for an account or a subscription: trimmed, lower-cased. */
export function normalEmail(email: string) {
  return email.trim().toLowerCase()
}

/**
 * One mailbox however it is written, for counting what is sent to it: lower-cased, without the `+tag` of its local
 * part (box+news@example.com is box@example.com). Never stored: the address itself is kept as it was typed.
 */
export function mailboxKey(email: string) {
  const address = normalEmail(email)
  const at = address.lastIndexOf('@')
  if (at < 0) return address
  const local = address.slice(0, at)
  const plus = local.indexOf('+')
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`
}
