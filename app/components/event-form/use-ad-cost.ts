import { useMemo } from 'react'
import { adChargeCentsFor, categoriesPricedApart, type PriceTier } from '#app/models/payments/price-list.ts'
import { formatDollars } from '#app/utils/pricing.ts'

/** The prices the page gives the form: the default tiers, and those of the categories priced apart, by name. */
export interface FormPrices {
  tiers: PriceTier[]
  byCategory: Record<string, PriceTier[]>
}

/**
 * The price of `days` display dates in `categories`, in dollars ("29.00"), by the rule the server charges by (the
 * highest of the categories' prices), and whether the categories are priced apart (the form then says the highest
 * applies). The server prices the ad again on saving, and refuses a total that differs.
 */
export function useAdCost(days: number, categories: readonly string[], prices: FormPrices) {
  return useMemo(() => {
    const pricedApart = categoriesPricedApart(categories, prices, prices.byCategory)
    try {
      return {
        cost: formatDollars(adChargeCentsFor(days, categories, prices, prices.byCategory)),
        pricedApart,
      }
    } catch {
      // A number of days without a price: the date fields say what is wrong.
      return { cost: '0.00', pricedApart }
    }
  }, [days, categories, prices])
}
