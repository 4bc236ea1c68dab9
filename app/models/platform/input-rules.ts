import '#app/zod-config.ts'
import { z } from 'zod'

/**
 * The rules every value from outside passes where it enters the app (body readers, query strings, ids in URLs),
 * so no handler meets a value PostgreSQL would refuse with an error instead of an answer.
 */

/** PostgreSQL `integer` (int4) stops here; a larger id would make a query fail instead of "not found". */
export const MAX_INT4 = 2_147_483_647

export const NUL_MESSAGE = 'Text must not contain a NUL character (\\u0000).'

/** A NUL character in a string anywhere in `value` (object keys and nested arrays included). PostgreSQL text cannot hold it. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0')
  if (depth > 64 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1))
  return Object.entries(value).some(([key, item]) => key.includes('\0') || containsNul(item, depth + 1))
}

/** The path of the body itself in `nulField`'s answer. */
export const BODY_FIELD = 'body'

/**
 * Where the first NUL character in `value` is, as the field a message names ("eventTitle", "eventCategory" for an
 * item of that list, "contact.name" inside an object; BODY_FIELD for the value itself, an item of it or a field name
 * holding one), or null when there is none.
 */
export function nulField(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || BODY_FIELD : null
  if (depth > 64 || value === null || typeof value !== 'object') return null
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return path || BODY_FIELD
    const itemPath = Array.isArray(value) ? path : path ? `${path}.${key}` : key
    const found = nulField(item, itemPath, depth + 1)
    if (found !== null) return found
  }
  return null
}

/** The refusal's message for a NUL character in `field`. */
export function nulMessage(field: string) {
  const name = field.replaceAll('\0', '').slice(0, 100)
  return name ? `${name}: ${NUL_MESSAGE}` : NUL_MESSAGE
}

/** A string without NUL: the base of every text field of a schema. */
export const text = () => z.string().refine((value) => !value.includes('\0'), NUL_MESSAGE)

/** A positive int4 id, as a number or a string of digits ("12"); "1.5", "01x", 0 or 2147483648 fail. */
export const idSchema = z.union([
  z.number().int().min(1).max(MAX_INT4),
  z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_INT4)),
])

/** A positive int4 id from a URL segment or form field, or null for anything else. */
export function parseId(value: unknown): number | null {
  const parsed = idSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}
