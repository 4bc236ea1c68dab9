/**
 * Prices specials apart in the e2e database (category-prices-data.ts): a new version of the price list, as the
 * pricing page saves one, with the rest of the list as it is.
 */
import { eq } from 'drizzle-orm'
import { currentPriceList } from '#app/models/payments/price-list.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { categoryList, priceLists } from '#db/schema.ts'
import { PRICED_CATEGORY, PRICED_CATEGORY_TIERS } from './category-prices-data.ts'

const handle = await openConfiguredDatabase(getEnv())
try {
  const { db } = handle
  const [category] = await db
    .select({ categoryID: categoryList.categoryID })
    .from(categoryList)
    .where(eq(categoryList.categoryName, PRICED_CATEGORY))
  if (!category) throw new Error(`The e2e database has no category ${PRICED_CATEGORY}`)
  const list = await currentPriceList(db)
  await db.insert(priceLists).values({
    tiers: list.tiers,
    sponsoredCentsPerDay: list.sponsoredCentsPerDay,
    sponsoredSlots: list.sponsoredSlots,
    freeListings: list.freeListings,
    categoryTiers: { ...list.categoryTiers, [String(category.categoryID)]: PRICED_CATEGORY_TIERS },
    note: `${PRICED_CATEGORY} priced apart`,
  })
} finally {
  await handle.close()
}
