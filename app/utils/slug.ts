const SLUG_MAX = 60

/** The slugs made so far: every card of a listing links to its event and its business (bounded; emptied when full). */
const slugs = new Map<string, string>()
const SLUGS_KEPT = 10_000

/**
 * "Blue Door Café & Bar" → "blue-door-cafe-bar": lower-case Latin letters and digits joined by single hyphens, at
 * most 60 characters; `fallback` for a text with none.
 */
export function slugOf(text: string, fallback: string): string {
  const key = `${fallback}\u0000${text}`
  let slug = slugs.get(key)
  if (slug !== undefined) return slug
  slug =
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, SLUG_MAX)
      .replace(/^-+|-+$/g, '') || fallback
  if (slugs.size >= SLUGS_KEPT) slugs.clear()
  slugs.set(key, slug)
  return slug
}
