import { CachedListItem } from '#app/components/cached-markup.tsx'
import { EventTile, type EventTileData } from '#app/components/event-tile.tsx'
import type { PhotoPriority } from '#app/components/photo-loading.ts'

export const NO_EVENTS_FOUND_TEXT = 'No events found. Try adjusting your filters.'

/** The count line above the results (the specification's text). */
export function foundEventsText(total: number) {
  return `We found ${total} event(s) for you!`
}
export const FEATURED_EVENTS_HEADING = 'Featured Events'

export interface CalendarResultsProps {
  featured: EventTileData[]
  /** The Sponsored slots, shown above the page of matches. */
  sponsored?: EventTileData[]
  events: EventTileData[]
  page: number
  pageCount: number
  /** The calendar's URL for another page with the same filters. */
  pageHref: (page: number) => string
}

/** Previous / Page x of y / Next as plain links, so paging works without JavaScript. */
export function Pagination({
  page,
  pageCount,
  pageHref,
}: Pick<CalendarResultsProps, 'page' | 'pageCount' | 'pageHref'>) {
  if (pageCount <= 1 && page <= 1) return null
  const linkClasses = 'rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-50'
  return (
    <nav aria-label="Pages" className="mt-8 flex items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <a href={pageHref(Math.min(page - 1, pageCount))} rel="prev" className={linkClasses}>
          Previous
        </a>
      ) : (
        <span />
      )}
      <span className="text-slate-600">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <a href={pageHref(page + 1)} rel="next" className={linkClasses}>
          Next
        </a>
      ) : (
        <span />
      )}
    </nav>
  )
}

/**
 * Each tile's keys, made once per tile and kind: the listing cache hands every render the same tile objects, and the
 * same key string is quicker to look up again.
 */
const tileKeys = new WeakMap<EventTileData, Record<string, string>>()

/** Everything a tile shows, for the rendered-tile cache. */
function tileKey(
  event: EventTileData,
  variant: 'featured' | 'sponsored' | 'grid',
  photoPriority: PhotoPriority,
) {
  const kind = `${variant} ${photoPriority}`
  let keys = tileKeys.get(event)
  if (!keys) {
    keys = {}
    tileKeys.set(event, keys)
  }
  return (keys[kind] ??= `${kind} ${JSON.stringify(event)}`)
}

/** The calendar's results below the count: the featured strip, one page of the grid (or the empty text), paging. */
export function CalendarResults({
  featured,
  sponsored = [],
  events,
  page,
  pageCount,
  pageHref,
}: CalendarResultsProps) {
  return (
    <>
      {featured.length > 0 ? (
        <section aria-labelledby="featured-heading" className="mt-6">
          <h2 id="featured-heading" className="text-lg font-semibold text-ink">
            {FEATURED_EVENTS_HEADING}
          </h2>
          <ul className="mt-3 flex snap-x gap-4 overflow-x-auto pb-3">
            {featured.map((event, i) => {
              // The first featured photo is the first on the screen.
              const photoPriority = i === 0 ? 'high' : 'lazy'
              return (
                <CachedListItem
                  key={event.eventID}
                  cacheKey={tileKey(event, 'featured', photoPriority)}
                  className="w-56 shrink-0 snap-start"
                >
                  <EventTile event={event} compact photoPriority={photoPriority} />
                </CachedListItem>
              )
            })}
          </ul>
        </section>
      ) : null}

      {sponsored.length > 0 ? (
        <ul aria-label="Sponsored events" className="mt-6 grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          {sponsored.map((event) => (
            <CachedListItem key={event.eventID} cacheKey={tileKey(event, 'sponsored', 'lazy')}>
              <EventTile event={event} photoPriority="lazy" />
            </CachedListItem>
          ))}
        </ul>
      ) : null}

      {events.length > 0 ? (
        <ul aria-label="Events" className="mt-6 grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
          {events.map((event, i) => {
            const photoPriority = i === 0 && featured.length === 0 ? 'high' : 'lazy'
            return (
              <CachedListItem key={event.eventID} cacheKey={tileKey(event, 'grid', photoPriority)}>
                <EventTile event={event} photoPriority={photoPriority} />
              </CachedListItem>
            )
          })}
        </ul>
      ) : (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          {NO_EVENTS_FOUND_TEXT}
        </p>
      )}

      <Pagination page={page} pageCount={pageCount} pageHref={pageHref} />
    </>
  )
}
