import type { LoaderFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { centsToDollars, chargeCentsForDays } from '#app/utils/pricing.ts'

export function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const raw = params.days ?? ''
    if (!/^\d{1,4}$/.test(raw))
      throw new AppError('Number of days must be a whole number of 0 or more', 'invalid')
    return Response.json({ chargeAmount: centsToDollars(chargeCentsForDays(Number(raw))) })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
