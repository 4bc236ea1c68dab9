import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { enqueueMessage, claimDueMessages, getOutboxMessage } from '#app/models/mail/outbox.server.ts'
import {
  createMailTransport,
  createMailWorker,
  deliverDueMessages,
  MAX_ATTEMPTS,
  retryDelayMs,
} from '#app/services/mail/mail.server.ts'
import { parseEnv } from '#app/services/platform/env.server.ts'
import { db } from '#db/client.server.ts'
import { outbox } from '#db/schema.ts'
import { SMTP_PASSWORD, TestSmtpServer } from '#tests/support/smtp-server.ts'

const FROM = 'EventShout <no-reply@eventshout.example>'
const smtp = new TestSmtpServer()

beforeAll(async () => {
  await smtp.start()
})

afterAll(async () => {
  await smtp.stop()
})

beforeEach(async () => {
  await db.delete(outbox)
  smtp.received.length = 0
})

function message(n: number) {
  return {
    kind: 'test',
    to: `owner${n}@example.com`,
    subject: `Hello ${n}`,
    text: `Plain text ${n}`,
    html: `<p>HTML ${n}</p>`,
  }
}

function deliver(now = new Date()) {
  const transport = createMailTransport(smtp.url)
  return deliverDueMessages({ transport, from: FROM, smtpUrl: smtp.url, now: () => now }).finally(() =>
    transport.close(),
  )
}

describe('the outbox is written with the change', () => {
  test('a committed transaction queues its message; a rolled-back one leaves none', async () => {
    await db.transaction(async (tx) => {
      await enqueueMessage(tx, message(1))
    })
    await expect(
      db.transaction(async (tx) => {
        await enqueueMessage(tx, message(2))
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    const rows = await db.select().from(outbox)
    expect(rows.map((r) => r.toAddress)).toEqual(['owner1@example.com'])
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: 0 })
  })

  test('the same dedupe key twice keeps one message', async () => {
    const first = await enqueueMessage(db, { ...message(1), dedupeKey: 'k1' })
    const second = await enqueueMessage(db, { ...message(2), dedupeKey: 'k1' })
    expect(first).toBeTypeOf('number')
    expect(second).toBeNull()
    expect(await db.select().from(outbox)).toHaveLength(1)
  })
})

describe('delivery over SMTP', () => {
  test('a queued message arrives once, with its recipient, subject, text and HTML', async () => {
    const id = (await enqueueMessage(db, message(1)))!
    expect(await deliver()).toEqual({ sent: [id], retrying: [], failed: [] })
    expect(smtp.received).toHaveLength(1)
    const [mail] = smtp.received
    expect(mail).toMatchObject({
      to: ['owner1@example.com'],
      from: 'no-reply@eventshout.example',
      subject: 'Hello 1',
    })
    expect(mail!.text.trim()).toBe('Plain text 1')
    expect(mail!.html).toContain('<p>HTML 1</p>')
    expect(mail!.messageId).toMatch(new RegExp(`^<outbox-${id}-\\d+@eventshout\\.example>$`))
    expect(await getOutboxMessage(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    // Nothing is due any more: a second round sends nothing.
    expect((await deliver()).sent).toEqual([])
    expect(smtp.received).toHaveLength(1)
  })

  test('an SMTP outage: the message stays queued with its attempt recorded, then arrives exactly once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const info = vi.spyOn(console, 'info')
    try {
      const id = (await enqueueMessage(db, message(7)))!
      await smtp.stop()
      const t0 = new Date()
      expect(await deliver(t0)).toEqual({ sent: [], retrying: [id], failed: [] })
      const queued = await getOutboxMessage(id)
      expect(queued).toMatchObject({ status: 'pending', attempts: 1 })
      expect(queued!.lastError).toMatch(/ECONNREFUSED|connect/i)
      expect(queued!.nextAttemptAt.getTime()).toBe(t0.getTime() + retryDelayMs(1))

      // Back up, but the backoff has not passed: nothing is sent yet.
      await smtp.start()
      expect((await deliver(t0)).sent).toEqual([])
      expect(smtp.received).toHaveLength(0)

      const later = new Date(t0.getTime() + retryDelayMs(1))
      expect((await deliver(later)).sent).toEqual([id])
      expect((await deliver(new Date(later.getTime() + 60 * 60 * 1000))).sent).toEqual([])
      expect(smtp.to('owner7@example.com')).toHaveLength(1)
      expect(await getOutboxMessage(id)).toMatchObject({ status: 'sent', attempts: 2 })

      // The password is in none of the logs nor the stored error.
      const logged = [...warn.mock.calls, ...info.mock.calls].flat().map(String).join('\n')
      expect(logged).toContain(`Email ${id}`)
      expect(logged).not.toContain(SMTP_PASSWORD)
      expect(logged).not.toContain('owner7@example.com')
      expect(JSON.stringify(await db.select().from(outbox))).not.toContain(SMTP_PASSWORD)
    } finally {
      warn.mockRestore()
      info.mockRestore()
    }
  })

  test('a wrong password is an attempt that failed, and the password is not in its error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const id = (await enqueueMessage(db, message(3)))!
      const badUrl = smtp.url.replace(SMTP_PASSWORD, 'wrong-pa55word')
      const transport = createMailTransport(badUrl)
      const report = await deliverDueMessages({ transport, from: FROM, smtpUrl: badUrl })
      transport.close()
      expect(report.retrying).toEqual([id])
      const row = await getOutboxMessage(id)
      expect(row!.lastError).toMatch(/auth|login|invalid/i)
      expect(row!.lastError).not.toContain('wrong-pa55word')
      expect(warn.mock.calls.flat().map(String).join('\n')).not.toContain('wrong-pa55word')
      expect(smtp.received).toHaveLength(0)
    } finally {
      warn.mockRestore()
    }
  })

  test(`after ${MAX_ATTEMPTS} failed attempts a message is given up on (status failed)`, async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const id = (await enqueueMessage(db, message(4)))!
      await db
        .update(outbox)
        .set({ attempts: MAX_ATTEMPTS - 1 })
        .where(eq(outbox.id, id))
      await smtp.stop()
      expect(await deliver()).toEqual({ sent: [], retrying: [], failed: [id] })
      await smtp.start()
      expect((await deliver(new Date(Date.now() + 365 * 86_400_000))).sent).toEqual([])
      expect(await getOutboxMessage(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    } finally {
      warn.mockRestore()
    }
  })
})

describe('claiming', () => {
  test('a message is due the moment it is queued, by the clock of the server that sends it', async () => {
    for (let n = 0; n < 40; n++) {
      const id = (await enqueueMessage(db, message(n)))!
      const claimed = await claimDueMessages({ now: new Date(), limit: 5, leaseMs: 60_000 })
      expect(claimed.map((m) => m.id)).toEqual([id])
    }
  })

  test('two claims at once never take the same message', async () => {
    for (let n = 0; n < 10; n++) await enqueueMessage(db, message(n))
    const now = new Date()
    const [a, b] = await Promise.all([
      claimDueMessages({ now, limit: 6, leaseMs: 60_000 }),
      claimDueMessages({ now, limit: 6, leaseMs: 60_000 }),
    ])
    const ids = [...a, ...b].map((m) => m.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toHaveLength(10)
  })

  test('a message whose sender died is claimed again once its lease is over, never before', async () => {
    const id = (await enqueueMessage(db, message(1)))!
    const now = new Date()
    expect((await claimDueMessages({ now, limit: 5, leaseMs: 60_000 })).map((m) => m.id)).toEqual([id])
    expect(
      await claimDueMessages({ now: new Date(now.getTime() + 59_000), limit: 5, leaseMs: 60_000 }),
    ).toEqual([])
    expect((await deliver(new Date(now.getTime() + 60_000))).sent).toEqual([id])
    expect(await getOutboxMessage(id)).toMatchObject({ status: 'sent', attempts: 2 })
    expect(smtp.received).toHaveLength(1)
  })
})

describe('the worker', () => {
  test('sends on its own and stops cleanly', async () => {
    await enqueueMessage(db, message(5))
    const worker = createMailWorker({ smtpUrl: smtp.url, from: FROM, intervalMs: 20 })
    await vi.waitFor(() => expect(smtp.to('owner5@example.com')).toHaveLength(1), { timeout: 10_000 })
    await worker.stop()
    await enqueueMessage(db, message(6))
    // Stopped: a round can only come from deliverNow, and none is under way.
    expect(smtp.to('owner6@example.com')).toHaveLength(0)
    expect(
      (await db.select().from(outbox).where(eq(outbox.toAddress, 'owner6@example.com')))[0],
    ).toMatchObject({ status: 'pending', attempts: 0 })
  })
})

describe('configuration', () => {
  test('SMTP_URL must be smtp:// or smtps://, MAIL_FROM an address', () => {
    expect(parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).SMTP_URL).toBe(
      'smtps://u:p@mail.example.com:465',
    )
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must be smtp/)
    expect(() => parseEnv({ SMTP_URL: 'not a url' })).toThrow(/SMTP_URL/)
    expect(parseEnv({}).MAIL_FROM).toBe('EventShout <no-reply@eventshout.example>')
    expect(parseEnv({ MAIL_FROM: 'Ads <ads@example.org>' }).MAIL_FROM).toBe('Ads <ads@example.org>')
    expect(() => parseEnv({ MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM/)
    expect(() => parseEnv({ MAIL_FROM: 'a@b.co\r\nBcc: x@y.z' })).toThrow(/MAIL_FROM/)
  })
})
