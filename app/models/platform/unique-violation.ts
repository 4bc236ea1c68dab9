/** Whether a database error (or one it wraps, as drizzle does) is a unique constraint's refusal. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  if ((error as { code?: unknown }).code === '23505') return true
  return isUniqueViolation((error as { cause?: unknown }).cause)
}
