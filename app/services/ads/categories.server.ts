/** The administrators' categories page: the list with each category's ads, and one change at a time. */
import type { CategoryChange } from '#app/models/ads/category-schema.ts'
import {
  addCategory,
  listCategoriesWithAdCounts,
  renameCategory,
  setCategoryHidden,
} from '#app/models/ads/category.server.ts'

export function categoriesPage() {
  return listCategoriesWithAdCounts()
}

/** Applies one change; the toast that says what happened. Throws `AppError` (invalid: a duplicate name; not_found: an unknown id). */
export async function changeCategory({ intent, categoryID, name }: CategoryChange) {
  switch (intent) {
    case 'add':
      await addCategory(name)
      return { title: 'Category added', description: `"${name}" is offered for new ads.` }
    case 'rename': {
      const { from } = await renameCategory(categoryID, name)
      return { title: 'Category renamed', description: `"${from}" is now "${name}", on its ads too.` }
    }
    case 'hide': {
      const { categoryName } = await setCategoryHidden(categoryID, true)
      return {
        title: 'Category hidden',
        description: `"${categoryName}" is no longer offered for new ads or in the calendar; its ads keep it.`,
      }
    }
    case 'show': {
      const { categoryName } = await setCategoryHidden(categoryID, false)
      return { title: 'Category shown', description: `"${categoryName}" is offered again.` }
    }
  }
}
