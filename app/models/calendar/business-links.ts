/** A business page's addresses (`/business/{id}-{slug}`, the slug made from the business's name) and texts. */
import { PRODUCT_NAME } from '#app/constants.ts'
import { slugOf } from '#app/utils/slug.ts'

/** "Blue Door Café & Bar" → "blue-door-cafe-bar": lower-case letters and digits joined by single hyphens. */
export function slugify(name: string) {
  return slugOf(name, 'business')
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
