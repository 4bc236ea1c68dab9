/** The prices in force, for every charge and form, and the administrators' pricing page that changes them. */
import type { Transaction } from '#db/client.server.ts'
import { listAllCategories } from '#app/models/ads/category.server.ts'
import { appendPriceList, currentPriceList, listPriceLists } from '#app/models/payments/price-list.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import {
  describeAllowance,
  FREE_CATEGORY_MESSAGE,
  freeAllowanceOf,
  freeField,
  freeListingsFormValues,
  type FreeAllowance,
  type FreeListing,
} from '#app/models/payments/free-listing.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  adChargeCentsFor,
  categoriesPricedApart,
  categoryTiersFormValues,
  chargeCentsFor,
  describeTiers,
  ownPricesField,
  PRICED_CATEGORY_MESSAGE,
  sponsoredSurchargeCentsFor,
  priceListChanges,
  priceListFormValues,
  priceTableRows,
  type PriceList,
  type PriceTier,
} from '#app/models/payments/price-list.ts'

/**
 * What an ad shown on `days` dates costs now, in cents; a count without a price is an `invalid` AppError. Inside a
 * transaction, read with it (the embedded database has one connection).
 */
export async function currentChargeCents(days: number, tx?: Transaction) {
  return chargeCentsFor(days, await currentPriceList(tx))
}

export const ONE_CATEGORY_MESSAGE = 'Give one category, by its name or id, or none for the default prices'
export const categoryNotOfferedMessage = (category: string) =>
  `There is no category "${category.length > 60 ? `${category.slice(0, 60)}…` : category}" to price. Give a category's name or id, as GET /api/categories lists them.`

/**
 * What an ad in the one category `category` (its name, any letter case, or its id) shown on `days` dates costs now,
 * in cents: its own tiers, or the default ones. A category that does not exist or is hidden is not found.
 */
export async function currentChargeCentsIn(days: number, category: string) {
  const list = await currentPriceList()
  const text = category.trim()
  const found = (await listAllCategories()).find((c) =>
    /^\d{1,9}$/.test(text)
      ? c.categoryID === Number(text)
      : c.categoryName.toLowerCase() === text.toLowerCase(),
  )
  if (!found || found.hidden) throw new AppError(categoryNotOfferedMessage(text), 'not_found')
  return adChargeCentsFor(days, [found.categoryName], list, await tiersByName(list))
}

/** The sponsored surcharge for `days` display days at the current price per day, in cents. */
export async function currentSponsoredSurchargeCents(days: number, tx?: Transaction) {
  return sponsoredSurchargeCentsFor(days, await currentPriceList(tx))
}

/** How many Sponsored slots the calendar shows now (0: sponsorship is not offered). */
export async function currentSponsoredSlots() {
  return (await currentPriceList()).sponsoredSlots
}

/** The categories listed free now, by name, with what a free listing in each includes. */
export async function currentFreeListings(tx?: Transaction) {
  return freeListingsByName(await currentPriceList(tx), tx)
}

async function freeListingsByName(
  { freeListings }: Pick<PriceList, 'freeListings'>,
  tx?: Transaction,
): Promise<Record<string, FreeAllowance>> {
  if (freeListings.length === 0) return {}
  const byName: Record<string, FreeAllowance> = {}
  for (const category of await listAllCategories(tx)) {
    const free = freeListings.find((f) => f.categoryID === category.categoryID)
    if (free)
      byName[category.categoryName] = { maxDates: free.maxDates, photo: free.photo, video: free.video }
  }
  return byName
}

/** The tiers of the categories priced apart, by name (hidden ones too: the ads that have them keep their price). */
async function tiersByName(
  { categoryTiers }: Pick<PriceList, 'categoryTiers'>,
  tx?: Transaction,
): Promise<Record<string, PriceTier[]>> {
  if (Object.keys(categoryTiers).length === 0) return {}
  const byName: Record<string, PriceTier[]> = {}
  for (const category of await listAllCategories(tx)) {
    if (Object.hasOwn(categoryTiers, String(category.categoryID)))
      byName[category.categoryName] = categoryTiers[String(category.categoryID)]!
  }
  return byName
}

/** What a free listing of an ad with `categories` includes now; null when the ad is not free. */
export async function currentFreeAllowance(categories: readonly string[], tx?: Transaction) {
  return freeAllowanceOf(categories, await currentFreeListings(tx))
}

/**
 * What an ad with `categories` shown on `days` dates is listed at now, in cents: $0 with its `allowance` when it is
 * a free listing (whose limits the caller checks, `freeListingProblems`), else the price of its days.
 */
export async function currentAdCharge(
  ad: { days: number; categories: readonly string[] },
  tx?: Transaction,
): Promise<{ cents: number; allowance: FreeAllowance | null }> {
  const list = await currentPriceList(tx)
  const allowance = freeAllowanceOf(ad.categories, await freeListingsByName(list, tx))
  if (allowance) return { cents: 0, allowance }
  return {
    cents: adChargeCentsFor(ad.days, ad.categories, list, await tiersByName(list, tx)),
    allowance: null,
  }
}

/** Whether an ad with `categories` pays the highest of different prices now (the preview says so). */
export async function currentCategoriesPricedApart(categories: readonly string[]) {
  const list = await currentPriceList()
  return categoriesPricedApart(categories, list, await tiersByName(list))
}

/** The event form's price table at today's prices. */
export async function currentPriceTable() {
  return priceTableRows(await currentPriceList())
}

/**
 * The prices the event form totals an ad by (with `adChargeCentsFor`): the default tiers, and the own tiers of
 * those of `categories` (the ones it offers) priced apart.
 */
export async function currentFormPrices(categories: readonly string[]) {
  const list = await currentPriceList()
  const byName = await tiersByName(list)
  return {
    tiers: list.tiers,
    byCategory: Object.fromEntries(
      categories.filter((name) => Object.hasOwn(byName, name)).map((name) => [name, byName[name]!]),
    ),
  }
}

const HISTORY_SHOWN = 50

/** The pricing page: the current list (and its values for the form), and the history of changes, newest first. */
export async function pricingPage() {
  const versions = await listPriceLists(HISTORY_SHOWN)
  const current = versions[0] ?? null
  const list: PriceList = current ?? (await currentPriceList())
  const categories = await listAllCategories()
  const categoryName = nameOfCategory(categories)
  // Every visible category, and a hidden one while it is still listed free.
  // Every visible category, and a hidden one while it is still priced apart.
  const priceRows = categories
    .filter((c) => !c.hidden || Object.hasOwn(list.categoryTiers, String(c.categoryID)))
    .map((c) => {
      const own = Object.hasOwn(list.categoryTiers, String(c.categoryID))
        ? list.categoryTiers[String(c.categoryID)]!
        : null
      return {
        categoryID: c.categoryID,
        name: c.categoryName,
        hidden: c.hidden,
        own: own && describeTiers(own),
      }
    })
  const freeRows = categories
    .filter((c) => !c.hidden || list.freeListings.some((f) => f.categoryID === c.categoryID))
    .map((c) => {
      const free = list.freeListings.find((f) => f.categoryID === c.categoryID)
      return {
        categoryID: c.categoryID,
        name: c.categoryName,
        hidden: c.hidden,
        free: free ? describeAllowance(free) : null,
      }
    })
  return {
    table: priceTableRows(list),
    sponsoredCentsPerDay: list.sponsoredCentsPerDay,
    sponsoredSlots: list.sponsoredSlots,
    freeRows,
    priceRows,
    formValues: {
      ...priceListFormValues(list),
      ...categoryTiersFormValues(
        list,
        priceRows.map((row) => row.categoryID),
      ),
      ...freeListingsFormValues(
        list.freeListings,
        freeRows.map((row) => row.categoryID),
      ),
    },
    history: versions.slice(0, HISTORY_SHOWN).map((version, i) => ({
      id: version.id,
      at: version.createdAt.toISOString(),
      by: version.changedByEmail,
      note: version.note,
      changes: priceListChanges(versions[i + 1] ?? null, version, categoryName),
    })),
  }
}

/** Saves a new price list as the current one, changed by the administrator `userId`; the toast saying so. */
export async function changePrices(list: PriceList & { note: string }, userId: string) {
  const categories = await listAllCategories()
  await assertFreeCategories(list.freeListings, categories)
  await assertPricedCategories(list.categoryTiers, categories)
  const { before, after } = await appendPriceList(list, userId)
  const changes = priceListChanges(before, after, nameOfCategory(categories))
  // The public pages keep the number of Sponsored slots with their listings.
  if (before?.sponsoredSlots !== after.sponsoredSlots) await announcePublicPagesChanged()
  return {
    title: 'Prices saved',
    description: changes.length > 0 ? 'The new prices apply to every ad not yet paid.' : 'Nothing changed.',
  }
}

type CategoryRow = Awaited<ReturnType<typeof listAllCategories>>[number]

function nameOfCategory(categories: readonly CategoryRow[]) {
  return (categoryID: number) =>
    categories.find((c) => c.categoryID === categoryID)?.categoryName ?? `a removed category (${categoryID})`
}

/**
 * A category is listed free only when it exists and is offered: a hidden one may stay free (its ads keep it), but
 * not become free. Refused at the category's field.
 */
async function assertFreeCategories(
  freeListings: readonly FreeListing[],
  categories: readonly CategoryRow[],
) {
  const { freeListings: before } = await currentPriceList()
  const refused = freeListings.filter((free) => {
    const category = categories.find((c) => c.categoryID === free.categoryID)
    if (!category) return true
    return category.hidden && !before.some((f) => f.categoryID === free.categoryID)
  })
  if (refused.length === 0) return
  throw new AppError(FREE_CATEGORY_MESSAGE, 'invalid', {
    fieldErrors: Object.fromEntries(refused.map((f) => [freeField(f.categoryID), [FREE_CATEGORY_MESSAGE]])),
  })
}

/**
 * A category is priced apart only when it exists and is offered: a hidden one may stay priced apart (its ads keep
 * its prices), but not become so. Refused at the category's box.
 */
async function assertPricedCategories(
  categoryTiers: Readonly<Record<string, PriceTier[]>>,
  categories: readonly CategoryRow[],
) {
  const { categoryTiers: before } = await currentPriceList()
  const refused = Object.keys(categoryTiers)
    .map(Number)
    .filter((id) => {
      const category = categories.find((c) => c.categoryID === id)
      if (!category) return true
      return category.hidden && !Object.hasOwn(before, String(id))
    })
  if (refused.length === 0) return
  throw new AppError(PRICED_CATEGORY_MESSAGE, 'invalid', {
    fieldErrors: Object.fromEntries(refused.map((id) => [ownPricesField(id), [PRICED_CATEGORY_MESSAGE]])),
  })
}
