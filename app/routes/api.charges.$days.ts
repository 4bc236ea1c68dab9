import type { LoaderFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  currentChargeCents,
  currentChargeCentsIn,
  ONE_CATEGORY_MESSAGE,
} from '#app/services/payments/pricing.server.ts'
import { centsToDollars } from '#app/utils/pricing.ts'

const CATEGORY_MAX = 200

/**
 * GET /api/charges/{days}[?category=<name or id>]: what an ad shown on `days` dates costs now, by the default
 * prices or by those of the category (its own, or the default ones).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const raw = params.days ?? ''
    if (!/^\d{1,4}$/.test(raw))
      throw new AppError('Number of days must be a whole number of 0 or more', 'invalid')
    const categories = new URL(request.url).searchParams.getAll('category')
    if (categories.length > 1 || (categories[0] !== undefined && categories[0].trim() === ''))
      throw new AppError(ONE_CATEGORY_MESSAGE, 'invalid')
    const category = categories[0]
    if (category !== undefined && category.length > CATEGORY_MAX)
      throw new AppError(ONE_CATEGORY_MESSAGE, 'invalid')
    const cents =
      category === undefined
        ? await currentChargeCents(Number(raw))
        : await currentChargeCentsIn(Number(raw), category)
    return Response.json({ chargeAmount: centsToDollars(cents) })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
