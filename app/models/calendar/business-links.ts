/** A business page's addresses (`/business/{id}-{slug}`, the slug made from the business's name) and texts. */
import { PRODUCT_NAME } from '#app/constants.ts'

const SLUG_MAX = 60

/** The slugs made so far, by name: every card of a listing links to its business (bounded; emptied when full). */
const slugs = new Map<string, string>()
const SLUGS_KEPT = 10_000

/** "Blue Door Café & Bar" → "blue-door-cafe-bar": lower-case letters and digits joined by single hyphens. */
export function slugify(name: string) {
  let slug = slugs.get(name)
  if (slug !== undefined) return slug
  slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, SLUG_MAX)
      .replace(/^-+|-+$/g, '') || 'business'
  if (slugs.size >= SLUGS_KEPT) slugs.clear()
  slugs.set(name, slug)
  return slug
}

/** The business page's own address (what every other spelling of it redirects to). */
export function businessPagePath(businessID: number, businessName: string) {
  return `/business/${businessID}-${slugify(businessName)}`
}

export function businessIcsPath(businessID: number) {
  return `/business/${businessID}/calendar.ics`
}

export function businessRssPath(businessID: number) {
  return `/business/${businessID}/calendar.rss`
}

/** "More from Blue Door Cafe": the link on a card and an event page to its business's page. */
export function moreFromText(businessName: string) {
  return `More from ${businessName}`
}

/** The page's count of the business's events that are over. */
export function pastEventsText(n: number) {
  return n === 0 ? 'No past events here yet.' : `${n} past event${n === 1 ? '' : 's'} on ${PRODUCT_NAME}.`
}

/** The dashboard's setting (in a module without zod, so the dashboard's browser code stays small). */
export const SHOW_BUSINESS_PAGE_LABEL = 'Show my business page'
