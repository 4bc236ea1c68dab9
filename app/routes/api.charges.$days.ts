import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonError } from '#app/services/http.server.ts'
import { AppError, appErrorResponse } from '#app/utils/app-error.ts'
import { centsToDollars, chargeCentsForDays } from '#app/utils/pricing.ts'

export function loader({ params }: LoaderFunctionArgs) {
  const raw = params.days ?? ''
  if (!/^\d{1,4}$/.test(raw)) return jsonError('Number of days must be a whole number of 0 or more', 400)
  try {
    return Response.json({ chargeAmount: centsToDollars(chargeCentsForDays(Number(raw))) })
  } catch (error) {
    if (error instanceof AppError) return appErrorResponse(error)
    throw error
  }
}
