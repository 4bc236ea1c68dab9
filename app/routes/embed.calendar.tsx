import { PracticalFactBadges } from '#app/components/practical-facts.tsx'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { EventLink } from '#app/components/event-link.tsx'
import { EventThumb, SponsoredBadge } from '#app/components/event-tile.tsx'
import { ScheduleStatusBadge } from '#app/components/schedule-status.tsx'
import { formatTimeRange } from '#app/models/ads/event-times.ts'
import { PRODUCT_NAME } from '#app/constants.ts'
import { calendarSearchParams } from '#app/models/calendar/calendar-filters.ts'
import { EMBED_FRAME_TITLE } from '#app/models/calendar/embed.ts'
import { formatShortDate } from '#app/utils/format.ts'
import { getEmbedEvents, readEmbedFilters } from '#app/services/calendar/embed.server.ts'
import { listingPageHeaders, sharedPageHeaders } from '#app/services/http/page-cache.server.ts'
import { secondsLeftInTurn } from '#app/models/calendar/sponsored-placement.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'

/**
 * The partners' embed: a compact list of upcoming events for an <iframe> on any site. Plain HTML without the site's
 * header (no script at all); it is the one page any site may frame (entry.server reads `frameable`).
 */
export const handle = { hydrate: false, chrome: false, frameable: true }
export const headers = sharedPageHeaders

const EMBED_EMPTY_TEXT = 'No upcoming events right now.'
const EMBED_MORE_TEXT = `More events on ${PRODUCT_NAME}`

export async function loader({ request }: LoaderFunctionArgs) {
  let filters
  try {
    filters = await readEmbedFilters(new URL(request.url).searchParams)
  } catch (error) {
    throw errorResponse(error, { request })
  }
  const now = Date.now()
  const events = await getEmbedEvents(filters, { today: platformToday(), now })
  const inSlots = events.filter((event) => event.sponsored).map((event) => event.eventID)
  const headers = listingPageHeaders({
    listed: [...new Set(events.map((event) => event.eventID))],
    inSlots,
    slotsForSeconds: inSlots.length > 0 ? secondsLeftInTurn(now) : null,
  })
  return data({ filters, events }, { headers })
}

export const meta: MetaFunction = () => [{ title: EMBED_FRAME_TITLE }, { name: 'robots', content: 'noindex' }]

/** Links leave the frame: the event opens in a new tab, never inside the partner's page. */
const newTab = { target: '_blank', rel: 'noopener' } as const
const titleClasses = 'font-semibold break-words text-brand-700 underline'

export default function EmbedCalendar() {
  const { filters, events } = useLoaderData<typeof loader>()
  const query = calendarSearchParams(filters).toString()
  return (
    <main className="p-3 text-sm">
      {events.length === 0 ? (
        <p className="text-slate-700">{EMBED_EMPTY_TEXT}</p>
      ) : (
        <ul aria-label="Upcoming events" className="grid gap-3">
          {events.map((event) => (
            <li
              key={`${event.sponsored ? 'slot' : 'listed'}-${event.eventID}`}
              className="flex min-w-0 gap-3"
            >
              <EventLink
                event={event}
                fromSponsoredSlot={event.sponsored}
                decorative
                newTab
                className="shrink-0"
              >
                <EventThumb
                  title={event.eventTitle}
                  photoPath={event.stillPhotoPath}
                  sizes="4rem"
                  className="size-16 rounded-md"
                />
              </EventLink>
              <div className="min-w-0">
                {/* A Sponsored slot's click is counted for its advertiser (apart from the rest), as on the calendar. */}
                <EventLink event={event} fromSponsoredSlot={event.sponsored} newTab className={titleClasses}>
                  {event.eventTitle}
                </EventLink>
                <ScheduleStatusBadge status={event.scheduleStatus} className="ml-2" />
                {event.sponsored ? <SponsoredBadge className="ml-2" /> : null}
                <p className="text-slate-700">
                  {event.date ? formatShortDate(event.date, { withYear: true }) : 'No dates'}
                  {event.date && formatTimeRange(event.times) ? ` · ${formatTimeRange(event.times)}` : null}
                </p>
                <p className="truncate text-slate-600">
                  {event.place ? `${event.businessName} · ${event.place}` : event.businessName}
                </p>
                <PracticalFactBadges facts={event.facts} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3">
        <a
          href={`/calendar${query ? `?${query}` : ''}`}
          {...newTab}
          className="font-medium text-brand-700 underline"
        >
          {EMBED_MORE_TEXT}
        </a>
      </p>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
