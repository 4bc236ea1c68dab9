import { and, desc, eq, getTableColumns, inArray, lt, lte, or, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { outbox, type OutboxMessage } from '#db/schema.ts'
import { withTokensHidden } from './hidden-tokens.ts'

type Executor = Transaction | typeof db

export type OutboxStatus = OutboxMessage['status']

export interface NewMessage {
  kind: string
  to: string
  subject: string
  text: string
  html: string
  /** The same key enqueued twice keeps the first message only. */
  dedupeKey?: string
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string>
}

/**
 * Queues a message. Call it with the transaction of the change the message tells about: it is written if and only
 * if that change commits.
 */
export async function enqueueMessage(executor: Executor, message: NewMessage) {
  const rows = await executor
    .insert(outbox)
    .values({
      kind: message.kind,
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
      dedupeKey: message.dedupeKey ?? null,
      headers: message.headers ?? null,
      // Due times are compared with the sending server's clock, so the first one is taken from that clock too.
      nextAttemptAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: outbox.id })
  return rows[0]?.id ?? null
}

/** Queues several messages with dedupe keys in one statement; returns the keys of those queued (not already there). */
export async function enqueueMessages(
  executor: Executor,
  messages: Array<NewMessage & { dedupeKey: string }>,
) {
  if (messages.length === 0) return []
  const now = new Date()
  const rows = await executor
    .insert(outbox)
    .values(
      messages.map((message) => ({
        kind: message.kind,
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html,
        dedupeKey: message.dedupeKey,
        headers: message.headers ?? null,
        nextAttemptAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ dedupeKey: outbox.dedupeKey })
  return rows.map((row) => row.dedupeKey!)
}

/**
 * Claims up to `limit` due messages for one delivery attempt: each becomes 'sending' until `now + leaseMs` and its
 * attempt is counted. `SKIP LOCKED` lets several servers claim at once without taking the same row; a message whose
 * sender died (still 'sending' after its lease) is due again.
 */
export async function claimDueMessages({
  now,
  limit,
  leaseMs,
}: {
  now: Date
  limit: number
  leaseMs: number
}): Promise<OutboxMessage[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(inArray(outbox.status, ['pending', 'sending']), lte(outbox.nextAttemptAt, now)))
    .orderBy(outbox.nextAttemptAt, outbox.id)
    .limit(limit)
    .for('update', { skipLocked: true })
  return db
    .update(outbox)
    .set({
      status: 'sending',
      attempts: sql`${outbox.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
    })
    .where(inArray(outbox.id, due))
    .returning()
}

/** The claimed attempt went through. */
export async function markMessageSent(id: number, now: Date) {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: now, lastError: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')))
}

/** The claimed attempt failed: due again at `retryAt`, or given up on (null). */
export async function markMessageFailed(id: number, error: string, retryAt: Date | null) {
  await db
    .update(outbox)
    .set(
      retryAt
        ? { status: 'pending', nextAttemptAt: retryAt, lastError: error }
        : { status: 'failed', lastError: error },
    )
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')))
}

export const OUTBOX_PAGE_SIZE = 50

/** A visitor's subscription emails: their address is shown only on the subscriber's own manage page. */
export const SUBSCRIBER_RECIPIENT = 'a subscriber (address not shown)'
const shownRecipient = sql<string>`case when ${outbox.kind} like 'subscription-%' then ${SUBSCRIBER_RECIPIENT} else ${outbox.toAddress} end`

export type OutboxListItem = Pick<
  OutboxMessage,
  'id' | 'createdAt' | 'kind' | 'toAddress' | 'subject' | 'status' | 'attempts' | 'lastError' | 'sentAt'
>

/** Messages newest first, a page at a time (1-based), as administrators read them (no link's token). */
export async function listOutbox(page: number): Promise<{ messages: OutboxListItem[]; total: number }> {
  const rows = await db
    .select({
      id: outbox.id,
      createdAt: outbox.createdAt,
      kind: outbox.kind,
      toAddress: shownRecipient,
      subject: outbox.subject,
      status: outbox.status,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .orderBy(desc(outbox.id))
    .limit(OUTBOX_PAGE_SIZE)
    .offset((page - 1) * OUTBOX_PAGE_SIZE)
  const [count] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(outbox)
  const messages = rows.map((row) => ({
    ...row,
    subject: withTokensHidden(row.subject),
    lastError: row.lastError === null ? null : withTokensHidden(row.lastError),
  }))
  return { messages, total: count?.n ?? 0 }
}

/**
 * One message as administrators read it: a subscriber's address left out, and every link's token hidden (the links
 * keep what they are for). The message sent is the stored one, links and all.
 */
export async function getOutboxMessage(id: number): Promise<OutboxMessage | null> {
  const [row] = await db
    .select({ ...getTableColumns(outbox), toAddress: shownRecipient })
    .from(outbox)
    .where(eq(outbox.id, id))
    .limit(1)
  if (!row) return null
  return {
    ...row,
    subject: withTokensHidden(row.subject),
    textBody: withTokensHidden(row.textBody),
    htmlBody: withTokensHidden(row.htmlBody),
    lastError: row.lastError === null ? null : withTokensHidden(row.lastError),
    headers:
      row.headers === null
        ? null
        : Object.fromEntries(
            Object.entries(row.headers).map(([name, value]) => [name, withTokensHidden(value)]),
          ),
  }
}

/**
 * Deletes messages sent before `sentBefore` and messages given up on that were queued before `failedBefore` (a failed
 * message keeps no time of its last attempt; it gives up within a day of being queued). Messages
 * still to be sent are never deleted. Returns how many of each went.
 */
export async function deleteOldMessages({
  sentBefore,
  failedBefore,
}: {
  sentBefore: Date
  failedBefore: Date
}) {
  const rows = await db
    .delete(outbox)
    .where(
      or(
        and(eq(outbox.status, 'sent'), lt(outbox.sentAt, sentBefore)),
        and(eq(outbox.status, 'failed'), lt(outbox.createdAt, failedBefore)),
      ),
    )
    .returning({ status: outbox.status })
  return {
    sent: rows.filter((row) => row.status === 'sent').length,
    failed: rows.filter((row) => row.status === 'failed').length,
  }
}

/**
 * What the outbox holds for the operator's gauges: messages still to be sent (with when the oldest was queued) and
 * messages given up on. Each count reads only its status's partial index, never the sent mail.
 */
export async function outboxBacklog() {
  const [pending] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      oldest: sql<Date | null>`min(${outbox.createdAt})`.mapWith(outbox.createdAt),
    })
    .from(outbox)
    .where(inArray(outbox.status, ['pending', 'sending']))
  const [failed] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(outbox)
    .where(eq(outbox.status, 'failed'))
  return { pending: pending?.count ?? 0, oldestPending: pending?.oldest ?? null, failed: failed?.count ?? 0 }
}
