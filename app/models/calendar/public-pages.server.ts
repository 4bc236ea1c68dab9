import { listCategories } from '#app/models/ads/category.server.ts'
import { cachedLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'

/** Category names for the calendar's filter, cached with the listings (they change about as rarely). */
export function getCategoryNames(): Promise<string[]> {
  return cachedLiveEvents('categories', async () => (await listCategories()).map((c) => c.categoryName))
}
