import { listCategories } from '#app/models/ads/category.server.ts'
import { listingEntries } from '#app/models/calendar/listings.server.ts'
import {
  groupByDay,
  listingsCsv,
  listingsFileName,
  listingsHtml,
  listingsSearchParams,
  listingsText,
  LISTINGS_MAX_ENTRIES,
  parseListingsQuery,
  type ListingsQuery,
} from '#app/models/calendar/listings.ts'
import { eventQrUrl } from '#app/models/ads/event-qr.ts'
import { qrCodeSvg } from '#app/models/ads/event-qr.server.ts'
import type { ListingDay } from '#app/models/calendar/listings.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** Every category an ad may have, hidden ones too: the filter's choices and what it accepts. */
async function categoryNames() {
  const rows = await listCategories({ keep: [] })
  return rows.map((row) => row.categoryName)
}

/**
 * The listing a query string asks for: its range and filters (invalid when either is bad), its days with their
 * entries (at most LISTINGS_MAX_ENTRIES, `truncated` when there were more), and the query string of its downloads.
 */
async function listingOf(query: URLSearchParams) {
  const today = platformToday()
  const categories = await categoryNames()
  const parsed = parseListingsQuery(query, today, categories)
  const entries = await listingEntries(parsed.range, parsed.filters, {
    today,
    limit: LISTINGS_MAX_ENTRIES + 1,
  })
  return {
    parsed,
    categories,
    days: groupByDay(entries.slice(0, LISTINGS_MAX_ENTRIES)),
    truncated: entries.length > LISTINGS_MAX_ENTRIES,
  }
}

/** The QR code of each ad listed (the SVG by event id), its address on `origin`. */
async function qrCodesOf(days: readonly ListingDay[], origin: string): Promise<Map<number, string>> {
  const ids = [...new Set(days.flatMap((day) => day.entries.map((entry) => entry.eventID)))]
  const codes = await Promise.all(ids.map((id) => qrCodeSvg(eventQrUrl(id, origin))))
  return new Map(ids.map((id, i) => [id, codes[i]!]))
}

/**
 * /admin/listings: the days of the listing with each ad's QR code (its address on `origin`), the filters as the
 * form shows them and the links to the downloads.
 */
export async function listingsPage(query: URLSearchParams, { origin }: { origin: string }) {
  const { parsed, categories, days, truncated } = await listingOf(query)
  const search = listingsSearchParams(parsed).toString()
  return {
    range: parsed.range,
    form: formValuesOf(parsed),
    categories,
    days,
    qrCodes: Object.fromEntries(await qrCodesOf(days, origin)) as Record<number, string>,
    truncated,
    downloads: {
      csv: `/admin/listings.csv?${search}`,
      text: `/admin/listings.txt?${search}`,
      html: `/admin/listings.html?${search}`,
    },
  }
}

function formValuesOf({ range, filters }: ListingsQuery) {
  return { from: range.from, to: range.to, category: filters.category, keyword: filters.keyword }
}

/** The filters as the page's form shows them after a refusal: what was sent. */
export function listingsFormValues(query: URLSearchParams) {
  return {
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    category: query.get('category') ?? '',
    keyword: query.get('keyword') ?? '',
  }
}

/** The categories the page's filter offers, for the page shown with a refusal. */
export const listingsCategories = categoryNames

type Listing = Awaited<ReturnType<typeof listingOf>>

const WRITERS = {
  csv: (listing: Listing) => listingsCsv(listing.days),
  txt: ({ parsed, days, truncated }: Listing) => listingsText(parsed.range, days, truncated),
  html: async ({ parsed, days, truncated }: Listing, origin: string) =>
    listingsHtml(parsed.range, days, truncated, await qrCodesOf(days, origin)),
} as const

export type ListingsFormat = keyof typeof WRITERS

/**
 * A download of the listing: its text and its file name (the range in it); the HTML snippet has each ad's QR code,
 * its address on `origin`. Invalid for a bad range or filter.
 */
export async function listingsDownload(
  query: URLSearchParams,
  format: ListingsFormat,
  { origin }: { origin: string },
) {
  const listing = await listingOf(query)
  return {
    body: await WRITERS[format](listing, origin),
    fileName: listingsFileName(listing.parsed.range, format),
  }
}
