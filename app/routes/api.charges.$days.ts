import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonError } from '#app/services/http.server.ts'
import { centsToDollars, chargeCentsForDays, PricingError } from '#app/utils/pricing.ts'

export function loader({ params }: LoaderFunctionArgs) {
  const raw = params.days ?? ''
  if (!/^\d{1,4}$/.test(raw)) return jsonError('Number of days must be a whole number of 0 or more', 400)
  try {
    return Response.json({ chargeAmount: centsToDollars(chargeCentsForDays(Number(raw))) })
  } catch (error) {
    if (error instanceof PricingError) return jsonError(error.message, 400)
    throw error
  }
}
