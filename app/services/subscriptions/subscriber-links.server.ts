import type { SubscriberLinks } from '#app/models/subscriptions/subscription-mail.ts'
import { SUBSCRIPTION_PATHS } from '#app/models/subscriptions/subscription-rules.ts'
import { signSubscriptionToken } from './subscription-tokens.server.ts'

const withToken = (origin: string, path: string, token: string) =>
  `${origin}${path}?token=${encodeURIComponent(token)}`

/** The manage and one-click unsubscribe links of a subscription's emails. */
export function subscriberLinks(id: number, origin: string): SubscriberLinks {
  const token = signSubscriptionToken(id, 'manage')
  return {
    manage: withToken(origin, SUBSCRIPTION_PATHS.manage, token),
    unsubscribe: withToken(origin, SUBSCRIPTION_PATHS.unsubscribe, token),
  }
}

export function confirmLink(id: number, origin: string, now = new Date()) {
  return withToken(origin, SUBSCRIPTION_PATHS.confirm, signSubscriptionToken(id, 'confirm', now))
}
