import '#app/zod-config.ts'
import { z } from 'zod'
import { NUL_MESSAGE, parseId } from '#app/models/platform/input-rules.ts'

/** The column's length (`categoryList.categoryName` is varchar(100)), and the calendar filter's. */
export const CATEGORY_NAME_MAX = 100

export const CATEGORY_INTENTS = ['add', 'rename', 'hide', 'show'] as const
export type CategoryIntent = (typeof CATEGORY_INTENTS)[number]

export const CATEGORY_INTENT_MESSAGE = 'intent must be one of add, rename, hide or show'
export const CATEGORY_NAME_REQUIRED = 'Enter a category name'
export const CATEGORY_NAME_TOO_LONG = `A category name can be at most ${CATEGORY_NAME_MAX} characters`
export const CATEGORY_ID_MESSAGE = 'categoryID must be the id of a category'

const nameSchema = z
  .string({ error: CATEGORY_NAME_REQUIRED })
  .trim()
  .min(1, CATEGORY_NAME_REQUIRED)
  .max(CATEGORY_NAME_MAX, CATEGORY_NAME_TOO_LONG)
  .refine((value) => !value.includes('\0'), NUL_MESSAGE)

/** The categories page's forms: the pressed button's `intent`, the category's id (but to add) and a name (add, rename). */
export const categoryFormSchema = z
  .object({
    intent: z.enum(CATEGORY_INTENTS, { error: CATEGORY_INTENT_MESSAGE }),
    categoryID: z.string().optional(),
    name: nameSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.intent !== 'add' && parseId(value.categoryID) === null) {
      ctx.addIssue({ code: 'custom', path: ['categoryID'], message: CATEGORY_ID_MESSAGE })
    }
    if ((value.intent === 'add' || value.intent === 'rename') && value.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: CATEGORY_NAME_REQUIRED })
    }
  })
  .transform(({ intent, categoryID, name }) => ({
    intent,
    categoryID: parseId(categoryID) ?? 0,
    name: name ?? '',
  }))

export type CategoryChange = z.infer<typeof categoryFormSchema>
