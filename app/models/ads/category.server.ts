import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { categoryList, eventRevisions, events } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'

export const CATEGORY_NOT_FOUND_MESSAGE = 'That category does not exist'

export function duplicateCategoryMessage(name: string) {
  return `A category named "${name}" already exists`
}

/** The categories offered for an ad: the visible ones, and any hidden ones in `keep` (those an edited ad has). */
export function listCategories({ keep = [] }: { keep?: readonly string[] } = {}) {
  const visible = eq(categoryList.hidden, false)
  return db
    .select({ categoryID: categoryList.categoryID, categoryName: categoryList.categoryName })
    .from(categoryList)
    .where(keep.length > 0 ? or(visible, inArray(categoryList.categoryName, [...keep])) : visible)
    .orderBy(asc(categoryList.categoryName))
}

/** Every category, hidden ones too, with how many ads (of any status) have it; the GIN index answers each count. */
export function listCategoriesWithAdCounts() {
  return db
    .select({
      categoryID: categoryList.categoryID,
      categoryName: categoryList.categoryName,
      hidden: categoryList.hidden,
      adCount: sql<number>`(select count(*)::int from ${events} where ${events.category} @> array[${categoryList.categoryName}]::text[])`,
    })
    .from(categoryList)
    .orderBy(asc(categoryList.categoryName))
}

/** Every category by name, hidden ones too (within a transaction, read with it). */
export function listAllCategories(executor: Transaction | typeof db = db) {
  return executor
    .select({
      categoryID: categoryList.categoryID,
      categoryName: categoryList.categoryName,
      hidden: categoryList.hidden,
    })
    .from(categoryList)
    .orderBy(asc(categoryList.categoryName))
}

export async function ensureCategories(names: readonly string[]) {
  if (names.length === 0) return
  await db
    .insert(categoryList)
    .values(names.map((categoryName) => ({ categoryName })))
    .onConflictDoNothing({ target: categoryList.categoryName })
}

/**
 * Names differ in more than letter case. The unique constraint is case-sensitive, so the check is ours: the table
 * lock makes concurrent additions and renames wait for each other, and the check sees every committed name.
 */
async function assertNameFree(tx: Transaction, name: string, exceptID?: number) {
  await tx.execute(sql`lock table ${categoryList} in share row exclusive mode`)
  const [taken] = await tx
    .select({ categoryName: categoryList.categoryName })
    .from(categoryList)
    .where(
      and(
        sql`lower(${categoryList.categoryName}) = lower(${name})`,
        exceptID === undefined ? undefined : ne(categoryList.categoryID, exceptID),
      ),
    )
    .limit(1)
  if (taken)
    throw new AppError(duplicateCategoryMessage(taken.categoryName), 'invalid', {
      fieldErrors: { name: [duplicateCategoryMessage(taken.categoryName)] },
    })
}

export function addCategory(name: string) {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, name)
    const [added] = await tx
      .insert(categoryList)
      .values({ categoryName: name })
      .returning({ categoryID: categoryList.categoryID })
    await announcePublicPagesChanged(tx)
    return added!
  })
}

/** Renames a category and, in the same transaction, the name in every ad and ad revision that has it (ads keep categories by name). */
export function renameCategory(categoryID: number, name: string) {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, name, categoryID)
    const [old] = await tx
      .select({ categoryName: categoryList.categoryName })
      .from(categoryList)
      .where(eq(categoryList.categoryID, categoryID))
    if (!old) throw new AppError(CATEGORY_NOT_FOUND_MESSAGE, 'not_found')
    const from = old.categoryName
    await tx.update(categoryList).set({ categoryName: name }).where(eq(categoryList.categoryID, categoryID))
    await tx
      .update(events)
      .set({ category: sql`array_replace(${events.category}, ${from}, ${name})` })
      .where(sql`${events.category} @> array[${from}]::text[]`)
    await tx
      .update(eventRevisions)
      .set({ category: sql`array_replace(${eventRevisions.category}, ${from}, ${name})` })
      .where(sql`${eventRevisions.category} @> array[${from}]::text[]`)
    await announcePublicPagesChanged(tx)
    return { from, to: name }
  })
}

/** Hides a category from new ads and the calendar's filter (ads that have it keep it), or shows it again. */
export function setCategoryHidden(categoryID: number, hidden: boolean) {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(categoryList)
      .set({ hidden })
      .where(eq(categoryList.categoryID, categoryID))
      .returning({ categoryName: categoryList.categoryName })
    if (!changed) throw new AppError(CATEGORY_NOT_FOUND_MESSAGE, 'not_found')
    await announcePublicPagesChanged(tx)
    return changed
  })
}
