/**
 * The provider's events (webhooks) recorded against their payment: each event id is processed once, in the
 * transaction of the change it brings.
 */
import { and, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { payments } from '#db/schema.ts'
import { lockEventOfIntent, type Executor } from '#app/models/payments/payment.server.ts'

export interface ProviderEventRecord {
  id: string
  type: string
  created: number
  summary: Record<string, unknown>
}

/**
 * Records a provider event against its payment unless that event id was seen before; false means "already
 * processed" (or not ours), so the caller changes nothing. Run it in the same transaction as the change it
 * guards, so a failed change leaves the event unrecorded and the provider's retry is processed.
 */
export async function claimProviderEvent(
  executor: Executor,
  paymentIntentId: string,
  event: ProviderEventRecord,
) {
  await lockEventOfIntent(executor, paymentIntentId)
  const rows = await executor
    .update(payments)
    .set({
      webhook_last_event_id: event.id,
      webhook_last_received_at: new Date(),
      latest_provider_event: { id: event.id, type: event.type, created: event.created, ...event.summary },
      metadata: sql`jsonb_set(coalesce(${payments.metadata}, '{}'::jsonb), '{webhookEventIds}', coalesce(${payments.metadata}->'webhookEventIds', '[]'::jsonb) || jsonb_build_array(${event.id}::text))`,
      updated_at: new Date(),
    })
    .where(
      and(
        eq(payments.payment_intent_id, paymentIntentId),
        sql`not (coalesce(${payments.metadata}->'webhookEventIds', '[]'::jsonb) @> jsonb_build_array(${event.id}::text))`,
      ),
    )
    .returning({ paymentID: payments.paymentID })
  return rows.length > 0
}

export async function hasProcessedProviderEvent(paymentIntentId: string, eventId: string) {
  const [row] = await db
    .select({ paymentID: payments.paymentID })
    .from(payments)
    .where(
      and(
        eq(payments.payment_intent_id, paymentIntentId),
        sql`coalesce(${payments.metadata}->'webhookEventIds', '[]'::jsonb) @> jsonb_build_array(${eventId}::text)`,
      ),
    )
    .limit(1)
  return Boolean(row)
}
