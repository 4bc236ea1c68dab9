import { listCategories } from '#app/models/category.server.ts'
import { calendarMonths } from '#app/models/calendar.ts'
import { PRICE_TIERS, formatDollars } from './pricing.ts'
import { today } from './event-approval.server.ts'

/** Everything the event form needs besides the advertiser: categories, the date picker's months, the price table. */
export async function eventFormOptions() {
  const day = today()
  const categories = (await listCategories()).map((c) => c.categoryName)
  let from = 1
  const priceTable = PRICE_TIERS.map((tier) => {
    const label = `${from}–${tier.upToDays} days`
    from = tier.upToDays + 1
    return { label, price: formatDollars(tier.cents) }
  })
  return { today: day, categories, months: calendarMonths(day, 3), priceTable }
}
