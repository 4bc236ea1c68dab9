import '#app/zod-config.ts'
import { z } from 'zod'
import { readPriceListForm } from './price-list.ts'

/**
 * The administrators' price list form, for `parseFormSubmission`: its fields read by `readPriceListForm`, each
 * problem at its field ('' = the form's own).
 */
export const priceListFormSchema = z.record(z.string(), z.unknown()).transform((form, ctx) => {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === 'string') fields[name] = value
    else if (value !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'Send one value' })
  }
  const read = readPriceListForm(fields)
  if (read.problems) {
    for (const [name, message] of Object.entries(read.problems))
      ctx.addIssue({ code: 'custom', path: name ? [name] : [], message })
  }
  return read.list ?? z.NEVER
})
