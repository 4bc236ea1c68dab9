/** The e2e database's category priced apart (seed-category-prices.ts): specials at their own prices. */
export const PRICED_CATEGORY = 'Special'
/** $15.00 up to a week, $99.00 beyond, against the default $29.00 / $49.00 / $69.00. */
export const PRICED_CATEGORY_TIERS = [
  { upToDays: 7, cents: 1500 },
  { upToDays: 21, cents: 9900 },
]
