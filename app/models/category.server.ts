import { asc } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { categoryList } from '#db/schema.ts'

export function listCategories() {
  return db
    .select({ categoryID: categoryList.categoryID, categoryName: categoryList.categoryName })
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
