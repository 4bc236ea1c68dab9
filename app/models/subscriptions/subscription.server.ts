/** Visitors' subscriptions (db/schema.ts `subscriptions`): saved searches and event reminders. */
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { subscriptions, type Subscription } from '#db/schema.ts'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import type { SubscriptionFrequency } from '#app/models/subscriptions/subscription-rules.ts'

type Executor = Transaction | typeof db

export interface NewSubscription {
  email: string
  kind: 'search' | 'reminder' | 'business'
  frequency: SubscriptionFrequency
  filters: CalendarFilters
  filterKey: string
  eventID: number | null
  businessID?: number | null
}

/** Adds the subscription, or finds the one this address already has for the same filters (`created` false). */
export async function addOrFindSubscription(
  tx: Executor,
  subscription: NewSubscription,
): Promise<{ subscription: Subscription; created: boolean }> {
  const [created] = await tx.insert(subscriptions).values(subscription).onConflictDoNothing().returning()
  if (created) return { subscription: created, created: true }
  const [found] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.email, subscription.email), eq(subscriptions.filterKey, subscription.filterKey)),
    )
    .limit(1)
  return { subscription: found!, created: false }
}

export async function getSubscription(id: number) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1)
  return row ?? null
}

/** Confirms it (a second confirmation changes nothing); from then on only ads approved later are news to it. */
export async function confirmSubscription(id: number, now = new Date()) {
  const [row] = await db
    .update(subscriptions)
    .set({
      confirmedAt: sql`coalesce(${subscriptions.confirmedAt}, ${now.toISOString()}::timestamptz)`,
      coveredUntil: sql`coalesce(${subscriptions.coveredUntil}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(subscriptions.id, id))
    .returning()
  return row ?? null
}

export async function setSubscriptionFrequency(id: number, frequency: SubscriptionFrequency) {
  const [row] = await db
    .update(subscriptions)
    .set({ frequency })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.kind, 'search')))
    .returning()
  return row ?? null
}

/** Unsubscribing: the address and its filter are gone. True when there was a row. */
export async function deleteSubscription(tx: Executor, id: number) {
  const rows = await tx
    .delete(subscriptions)
    .where(eq(subscriptions.id, id))
    .returning({ id: subscriptions.id })
  return rows.length > 0
}

/** Subscriptions never confirmed, asked for before `cutoff`. */
export async function deleteUnconfirmedBefore(cutoff: Date) {
  const rows = await db
    .delete(subscriptions)
    .where(and(isNull(subscriptions.confirmedAt), lt(subscriptions.createdAt, cutoff)))
    .returning({ id: subscriptions.id })
  return rows.length
}

/** How many confirmed subscriptions there are, per frequency (weekly, daily, once). */
export async function countConfirmedByFrequency(): Promise<Record<SubscriptionFrequency, number>> {
  const rows = await db
    .select({ frequency: subscriptions.frequency, n: sql<number>`count(*)`.mapWith(Number) })
    .from(subscriptions)
    .where(isNotNull(subscriptions.confirmedAt))
    .groupBy(subscriptions.frequency)
  const counts: Record<SubscriptionFrequency, number> = { weekly: 0, daily: 0, once: 0 }
  for (const row of rows) counts[row.frequency as SubscriptionFrequency] = row.n
  return counts
}
