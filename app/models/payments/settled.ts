/** Payment states that are final: the ad was paid for (and may since have been refunded); nothing reopens them. */
export const SETTLED = ['paid', 'refunded'] as const

/** Whether an ad or a payment in `status` was paid for: paid, or refunded after it was. */
export function wasPaidFor(status: string) {
  return (SETTLED as readonly string[]).includes(status)
}
