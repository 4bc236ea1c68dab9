/** What a subscriber's links do: confirm, see and change the subscription, unsubscribe. The token is the only key. */
import { getLiveEventTitle } from '#app/models/subscriptions/subscription-matches.server.ts'
import { getBusinessById } from '#app/models/accounts/business.server.ts'
import {
  describeFollow,
  describeSearch,
  FREQUENCY_LABELS,
  SUBSCRIPTION_TEXT,
  type SearchFrequency,
  storedSearchFilters,
} from '#app/models/subscriptions/subscription-rules.ts'
import {
  confirmSubscription,
  deleteSubscription,
  getSubscription,
  setSubscriptionFrequency,
} from '#app/models/subscriptions/subscription.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { db } from '#db/client.server.ts'
import type { Subscription } from '#db/schema.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import {
  signSubscriptionToken,
  verifySubscriptionToken,
  type TokenPurpose,
} from './subscription-tokens.server.ts'

export const SUBSCRIPTION_GONE =
  'This subscription does not exist any more (it was unsubscribed, or its reminder was sent), so nothing more is sent to you. Subscribe again from the calendar to get emails.'

function tokenId(token: string | null, purpose: TokenPurpose) {
  const id = verifySubscriptionToken(token, purpose)
  if (id === null) throw new AppError(SUBSCRIPTION_TEXT.invalidLink, 'invalid')
  return id
}

/** What the manage page shows: the address (only here), the search in words, the frequency. */
export interface ManagedSubscription {
  email: string
  kind: 'search' | 'reminder' | 'business'
  what: string
  frequency: Subscription['frequency']
  frequencyLabel: string
  confirmed: boolean
  /** The manage token (to post the page's forms with). */
  token: string
}

/** A subscription in words: the search, the event reminded of, or the business followed. */
async function describeWhat(subscription: Subscription) {
  if (subscription.kind === 'business') {
    const followed = subscription.businessID ? await getBusinessById(subscription.businessID) : null
    return describeFollow(followed?.businessName ?? 'a business that is no longer here')
  }
  if (subscription.kind === 'reminder') {
    const eventTitle = subscription.eventID
      ? await getLiveEventTitle(subscription.eventID, platformToday())
      : null
    return `A reminder the day before ${eventTitle ? `“${eventTitle}”` : 'an event that is no longer on the calendar'}`
  }
  return describeSearch(storedSearchFilters(subscription.filters))
}

async function describe(subscription: Subscription): Promise<Omit<ManagedSubscription, 'token'>> {
  return {
    email: subscription.email,
    kind: subscription.kind as ManagedSubscription['kind'],
    what: await describeWhat(subscription),
    frequency: subscription.frequency,
    frequencyLabel: FREQUENCY_LABELS[subscription.frequency as SearchFrequency] ?? subscription.frequency,
    confirmed: subscription.confirmedAt !== null,
  }
}

/** What a confirmation link's page shows before its button is pressed: the subscription in words. */
export interface ConfirmationPage {
  what: string
  frequencyLabel: string
  confirmed: boolean
  /** Once confirmed, the manage token to go on with. */
  manageToken: string | null
}

/**
 * A confirmation link followed (GET): changes nothing, since mail providers' link scanners fetch every link in an
 * email; only the page's button (confirmByToken) confirms.
 */
export async function confirmationByToken(token: string | null): Promise<ConfirmationPage> {
  const subscription = await getSubscription(tokenId(token, 'confirm'))
  if (!subscription) throw new AppError(SUBSCRIPTION_GONE, 'not_found')
  const { what, frequencyLabel, confirmed } = await describe(subscription)
  return {
    what,
    frequencyLabel,
    confirmed,
    manageToken: confirmed ? signSubscriptionToken(subscription.id, 'manage') : null,
  }
}

/** The confirmation page's button: the subscription is confirmed; answers the manage token to go on with. */
export async function confirmByToken(token: string | null) {
  const confirmed = await confirmSubscription(tokenId(token, 'confirm'))
  if (!confirmed) throw new AppError(SUBSCRIPTION_GONE, 'not_found')
  return signSubscriptionToken(confirmed.id, 'manage')
}

export async function manageByToken(token: string | null) {
  const subscription = await getSubscription(tokenId(token, 'manage'))
  if (!subscription) throw new AppError(SUBSCRIPTION_GONE, 'not_found')
  return { ...(await describe(subscription)), token: token! }
}

export async function changeFrequencyByToken(token: string | null, frequency: SearchFrequency) {
  const changed = await setSubscriptionFrequency(tokenId(token, 'manage'), frequency)
  if (!changed) throw new AppError(SUBSCRIPTION_GONE, 'not_found')
}

/** Unsubscribes (one click, or the manage page): the row goes. Again is fine: the answer is the same. */
export async function unsubscribeByToken(token: string | null) {
  await deleteSubscription(db, tokenId(token, 'manage'))
}
