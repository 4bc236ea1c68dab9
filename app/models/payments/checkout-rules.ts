/**
 * The checkout page's card form of the built-in test provider, without zod: the page checks it in the browser, the
 * server's schema (checkout-schema.ts) holds the same rules. Whether the card pays is the provider's to say.
 */

export const TEST_CARD_FIELDS = ['cardNumber', 'expiry', 'cvc'] as const
export type TestCardField = (typeof TEST_CARD_FIELDS)[number]

/** The most each field holds ("4242 4242 4242 4242" with spaces or dashes, "MM/YYYY", four digits). */
export const TEST_CARD_MAX_LENGTH: Record<TestCardField, number> = { cardNumber: 23, expiry: 7, cvc: 4 }

export const TEST_CARD_REQUIRED: Record<TestCardField, string> = {
  cardNumber: 'Enter your card number.',
  expiry: 'Enter the expiry date as MM/YY.',
  cvc: 'Enter the security code (CVC).',
}

export const testCardTooLong = (field: TestCardField) =>
  `Use at most ${TEST_CARD_MAX_LENGTH[field]} characters.`

/** The problem of each card field (only those with one), as the server's schema finds them. */
export function testCardProblems(values: Partial<Record<string, string>>): Record<string, string> {
  const problems: Record<string, string> = {}
  for (const field of TEST_CARD_FIELDS) {
    const value = values[field] ?? ''
    if (value === '') problems[field] = TEST_CARD_REQUIRED[field]
    else if (value.length > TEST_CARD_MAX_LENGTH[field]) problems[field] = testCardTooLong(field)
  }
  return problems
}
