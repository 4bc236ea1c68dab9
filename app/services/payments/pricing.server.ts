/** The prices in force, for every charge and form, and the administrators' pricing page that changes them. */
import type { Transaction } from '#db/client.server.ts'
import { appendPriceList, currentPriceList, listPriceLists } from '#app/models/payments/price-list.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import {
  chargeCentsFor,
  sponsoredSurchargeCentsFor,
  priceListChanges,
  priceListFormValues,
  priceTableRows,
  type PriceList,
} from '#app/models/payments/price-list.ts'

/**
 * What an ad shown on `days` dates costs now, in cents; a count without a price is an `invalid` AppError. Inside a
 * transaction, read with it (the embedded database has one connection).
 */
export async function currentChargeCents(days: number, tx?: Transaction) {
  return chargeCentsFor(days, await currentPriceList(tx))
}

/** The sponsored surcharge for `days` display days at the current price per day, in cents. */
export async function currentSponsoredSurchargeCents(days: number, tx?: Transaction) {
  return sponsoredSurchargeCentsFor(days, await currentPriceList(tx))
}

/** How many Sponsored slots the calendar shows now (0: sponsorship is not offered). */
export async function currentSponsoredSlots() {
  return (await currentPriceList()).sponsoredSlots
}

/** The event form's price table at today's prices. */
export async function currentPriceTable() {
  return priceTableRows(await currentPriceList())
}

const HISTORY_SHOWN = 50

/** The pricing page: the current list (and its values for the form), and the history of changes, newest first. */
export async function pricingPage() {
  const versions = await listPriceLists(HISTORY_SHOWN)
  const current = versions[0] ?? null
  const list: PriceList = current ?? (await currentPriceList())
  return {
    table: priceTableRows(list),
    sponsoredCentsPerDay: list.sponsoredCentsPerDay,
    sponsoredSlots: list.sponsoredSlots,
    formValues: priceListFormValues(list),
    history: versions.slice(0, HISTORY_SHOWN).map((version, i) => ({
      id: version.id,
      at: version.createdAt.toISOString(),
      by: version.changedByEmail,
      note: version.note,
      changes: priceListChanges(versions[i + 1] ?? null, version),
    })),
  }
}

/** Saves a new price list as the current one, changed by the administrator `userId`; the toast saying so. */
export async function changePrices(list: PriceList & { note: string }, userId: string) {
  const { before, after } = await appendPriceList(list, userId)
  const changes = priceListChanges(before, after)
  // The public pages keep the number of Sponsored slots with their listings.
  if (before?.sponsoredSlots !== after.sponsoredSlots) await announcePublicPagesChanged()
  return {
    title: 'Prices saved',
    description: changes.length > 0 ? 'The new prices apply to every ad not yet paid.' : 'Nothing changed.',
  }
}
