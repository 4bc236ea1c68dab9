import type { LoaderFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { currentChargeCents } from '#app/services/payments/pricing.server.ts'
import { centsToDollars } from '#app/utils/pricing.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const raw = params.days ?? ''
    if (!/^\d{1,4}$/.test(raw))
      throw new AppError('Number of days must be a whole number of 0 or more', 'invalid')
    return Response.json({ chargeAmount: centsToDollars(await currentChargeCents(Number(raw))) })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
