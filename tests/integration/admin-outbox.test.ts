import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { enqueueMessage, OUTBOX_PAGE_SIZE } from '#app/models/mail/outbox.server.ts'
import { loader as messageLoader } from '#app/routes/admin_.outbox.$id.tsx'
import { loader as outboxLoader } from '#app/routes/admin_.outbox._index.tsx'
import { action as subscribeAction } from '#app/routes/subscribe.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { confirmByToken } from '#app/services/subscriptions/manage.server.ts'
import { queueReminders } from '#app/services/subscriptions/subscriber-jobs.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { authAttempts, outbox, subscriptions, type OutboxMessage } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { TestSmtpServer } from '#tests/support/smtp-server.ts'

let adminCookie: string
let clinicianCookie: string
let businessCookie: string

beforeAll(async () => {
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
  businessCookie = await sessionCookieFor({ business: await insertBusiness(db) })
})

beforeEach(async () => {
  await db.delete(outbox)
})

function queue(n: number) {
  return enqueueMessage(db, {
    kind: 'test',
    to: `owner${n}@example.com`,
    subject: `Subject ${n}`,
    text: `Text body ${n}`,
    html: `<p>HTML body ${n}</p>`,
  })
}

type ListBody = {
  page: number
  pageCount: number
  total: number
  sending: boolean
  messages: Array<{ id: number; subject: string; toAddress: string; status: string }>
}

describe('/admin/outbox', () => {
  test('administrators: every message newest first, with status, recipient and subject; nothing sent without SMTP_URL', async () => {
    for (let n = 1; n <= 3; n++) await queue(n)
    const res = await callRoute(outboxLoader, '/admin/outbox', { headers: { Cookie: adminCookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = (await res.json()) as ListBody
    expect(body.sending).toBe(false)
    expect(body.total).toBe(3)
    expect(body.messages.map((m) => [m.subject, m.toAddress, m.status])).toEqual([
      ['Subject 3', 'owner3@example.com', 'pending'],
      ['Subject 2', 'owner2@example.com', 'pending'],
      ['Subject 1', 'owner1@example.com', 'pending'],
    ])
  })

  test('pages of 50', async () => {
    for (let n = 1; n <= OUTBOX_PAGE_SIZE + 2; n++) await queue(n)
    const res = await callRoute(outboxLoader, '/admin/outbox?page=2', { headers: { Cookie: adminCookie } })
    const body = (await res.json()) as ListBody
    expect(body).toMatchObject({ page: 2, pageCount: 2, total: OUTBOX_PAGE_SIZE + 2 })
    expect(body.messages.map((m) => m.subject)).toEqual(['Subject 2', 'Subject 1'])
  })

  test('one message is readable: its text and HTML', async () => {
    const id = (await queue(9))!
    const res = await callRoute(messageLoader, `/admin/outbox/${id}`, {
      headers: { Cookie: adminCookie },
      params: { id: String(id) },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      message: {
        id,
        to: 'owner9@example.com',
        subject: 'Subject 9',
        text: 'Text body 9',
        html: '<p>HTML body 9</p>',
      },
    })
  })

  test('signed out → sign-in; an advertiser or a clinician → 403, for the list and a message', async () => {
    const id = String(await queue(1))
    const signedOut = await callRoute(outboxLoader, '/admin/outbox')
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/api\/login\?redirectTo=%2Fadmin%2Foutbox/)
    const signedOutMessage = await callRoute(messageLoader, `/admin/outbox/${id}`, { params: { id } })
    expect(signedOutMessage.status).toBe(302)
    for (const cookie of [businessCookie, clinicianCookie]) {
      expect((await callRoute(outboxLoader, '/admin/outbox', { headers: { Cookie: cookie } })).status).toBe(
        403,
      )
      const message = await callRoute(messageLoader, `/admin/outbox/${id}`, {
        headers: { Cookie: cookie },
        params: { id },
      })
      expect(message.status).toBe(403)
      expect(JSON.stringify(await message.json())).not.toContain('Subject 1')
    }
  })

  test('bad ids and pages are 4xx with a message', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', '2147483647']) {
      const res = await callRoute(messageLoader, `/admin/outbox/${id}`, {
        headers: { Cookie: adminCookie },
        params: { id },
      })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: 'Message not found' })
    }
    for (const page of ['0', 'abc', '-2', '1e3']) {
      const res = await callRoute(outboxLoader, `/admin/outbox?page=${page}`, {
        headers: { Cookie: adminCookie },
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ message: 'page must be a whole number from 1' })
    }
  })
})

describe('/admin/outbox in the built app', () => {
  test(
    'a message opens on its own page (the list does not stand in for it)',
    async () => {
      const request = await builtRequestHandler()
      const id = await queue(7)
      await queue(8)
      const html = await (await request(`/admin/outbox/${id}`, { headers: { Cookie: adminCookie } })).text()
      expect(html).toContain('Text body 7')
      expect(html).not.toContain('Subject 8')
    },
    BUILD_TIMEOUT_MS,
  )
})

/** A form posted from the site's own page (the framework compares its Origin with the Host). */
const FORM = {
  'Content-Type': 'application/x-www-form-urlencoded',
  Origin: 'http://localhost',
  Host: 'localhost',
}

function subscribe(fields: Record<string, string>) {
  return callRoute(subscribeAction, '/subscribe', {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: FORM,
  })
}

/** The values of the `token` parameters of a stored email's links (text, HTML and headers): the keys it sends. */
function tokensOf(row: OutboxMessage) {
  const stored = `${row.textBody}\n${row.htmlBody}\n${JSON.stringify(row.headers)}`
  return [...new Set([...stored.matchAll(/[?&]token=([^\s"'<>&]+)/g)].map((m) => decodeURIComponent(m[1]!)))]
}

/** The newest stored email of `kind`: the message as it is sent. */
async function storedMail(kind: string) {
  const [row] = await db.select().from(outbox).where(eq(outbox.kind, kind)).orderBy(desc(outbox.id)).limit(1)
  return row!
}

interface SubscriberMail {
  name: string
  row: OutboxMessage
  tokens: string[]
}

/**
 * A subscriber's emails as the site queues them: the confirmations of a saved search, a business follow and an
 * event reminder, and the reminder itself the day before. Each carries confirm or manage and unsubscribe links.
 */
async function subscriberMails(): Promise<SubscriberMail[]> {
  const hall = await insertBusiness(db, { businessName: 'Outbox Hall' })
  const tomorrowAd = await insertTestEvent(hall, {
    eventTitle: 'Outbox Jazz',
    showAdOnDates: [addDaysIso(platformToday(), 1)],
    reviewedAt: new Date(),
  })
  const mails: SubscriberMail[] = []
  const add = (name: string, row: OutboxMessage) => mails.push({ name, row, tokens: tokensOf(row) })
  const fields = [
    [
      'search confirmation',
      { kind: 'search', email: 'search@example.org', frequency: 'weekly', keyword: 'jazz' },
    ],
    [
      'follow confirmation',
      { kind: 'business', email: 'follow@example.org', businessID: String(hall.businessID) },
    ],
    [
      'reminder confirmation',
      { kind: 'reminder', email: 'remind@example.org', eventID: String(tomorrowAd.eventID) },
    ],
  ] as const
  for (const [name, form] of fields) {
    expect((await subscribe(form)).status, name).toBe(200)
    add(name, await storedMail('subscription-confirm'))
  }
  const reminderConfirm = mails.at(-1)!.tokens.find((token) => token.includes('.confirm.'))
  await confirmByToken(reminderConfirm!)
  expect((await queueReminders()).queued).toBe(1)
  add('reminder', await storedMail('subscription-reminder'))
  for (const mail of mails) expect(mail.tokens.length, mail.name).toBeGreaterThanOrEqual(1)
  return mails
}

/** Every address the page offers: its links' targets and the addresses written in its text. */
function addressesIn(page: string) {
  const unescaped = page
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\\u0026/g, '&')
  return [
    ...new Set(unescaped.match(/(?:https?:\/\/[^\s"'<>\\]+)?\/subscriptions\/[a-z]+[^\s"'<>\\]*/g) ?? []),
  ]
}

describe('a subscriber’s email in the outbox', () => {
  const smtp = new TestSmtpServer()

  beforeAll(async () => {
    await smtp.start()
  })

  afterAll(async () => {
    await smtp.stop()
  })

  beforeEach(async () => {
    await db.delete(subscriptions)
    await db.delete(authAttempts)
    smtp.received.length = 0
  })

  test(
    'shows what each link is for, never its token: the message page, its data, the list and the HTML',
    async () => {
      const request = await builtRequestHandler()
      const mails = await subscriberMails()
      const list = await request('/admin/outbox', { headers: { Cookie: adminCookie } })
      const listData = await request('/admin/outbox.data', { headers: { Cookie: adminCookie } })
      expect([list.status, listData.status]).toEqual([200, 200])
      for (const [view, body] of [
        ['list', await list.text()],
        ['list data', await listData.text()],
      ]) {
        for (const { tokens } of mails) for (const token of tokens) expect(body, view).not.toContain(token)
      }
      for (const { name, row, tokens } of mails) {
        const id = String(row.id)
        const loaded = await callRoute(messageLoader, `/admin/outbox/${id}`, {
          headers: { Cookie: adminCookie },
          params: { id },
        })
        const { message } = (await loaded.json()) as { message: { text: string; html: string } }
        const page = await request(`/admin/outbox/${id}`, { headers: { Cookie: adminCookie } })
        expect(page.status, name).toBe(200)
        const data = await request(`/admin/outbox/${id}.data`, { headers: { Cookie: adminCookie } })
        expect(data.status, name).toBe(200)
        const views = {
          text: message.text,
          html: message.html,
          page: await page.text(),
          data: await data.text(),
        }
        for (const [view, body] of Object.entries(views)) {
          for (const token of tokens) expect(body, `${name}: ${view}`).not.toContain(token)
          // The signature alone (the token's last part) is not shown either.
          for (const token of tokens) expect(body, `${name}: ${view}`).not.toContain(token.split('.').at(-1)!)
        }
        // What each link is for stays readable.
        expect(message.text, name).toContain('Unsubscribe: ')
        expect(message.text, name).toMatch(/\/subscriptions\/unsubscribe\?token=\[hidden\]$/m)
        expect(message.html, name).toContain('/subscriptions/unsubscribe?token=[hidden]">Unsubscribe</a>')
        if (name.endsWith('confirmation')) {
          expect(message.text, name).toMatch(
            /^Confirm my subscription: \S+\/subscriptions\/confirm\?token=\[hidden\]$/m,
          )
        }
      }
    },
    BUILD_TIMEOUT_MS,
  )

  test(
    'an administrator following what the pages show confirms, changes and unsubscribes no one; the email sent keeps its links',
    async () => {
      const request = await builtRequestHandler()
      const mails = await subscriberMails()
      const before = await db.select().from(subscriptions).orderBy(subscriptions.id)
      // The search and the follow wait for confirmation; the reminder's subscription went with its email.
      expect(before.map((row) => row.confirmedAt)).toEqual([null, null])
      const shown = new Set<string>()
      for (const page of [
        '/admin/outbox',
        ...mails.flatMap(({ row }) => [`/admin/outbox/${row.id}`, `/admin/outbox/${row.id}.data`]),
      ]) {
        const body = await (await request(page, { headers: { Cookie: adminCookie } })).text()
        for (const address of addressesIn(body)) shown.add(address)
      }
      expect(shown.size).toBeGreaterThanOrEqual(3)
      for (const address of shown) {
        const url = new URL(address, 'http://localhost')
        const target = url.pathname + url.search
        // As the administrator, and as anyone else who opens it: the link, each page's button and the one-click post.
        for (const cookie of [adminCookie, '']) {
          const headers = { ...FORM, ...(cookie ? { Cookie: cookie } : {}) }
          const opened = await request(target, { headers: cookie ? { Cookie: cookie } : {} })
          expect(opened.status, `GET ${target}`).toBe(400)
          for (const body of ['', 'List-Unsubscribe=One-Click', 'intent=frequency&frequency=daily']) {
            const posted = await request(target, { method: 'POST', headers, body })
            expect(posted.status, `POST ${target} ${body}`).toBe(400)
          }
        }
      }
      expect(await db.select().from(subscriptions).orderBy(subscriptions.id)).toEqual(before)

      // The email itself goes out with the links that work.
      await smtp.deliverOutbox()
      for (const { name, row, tokens } of mails) {
        const [sent] = smtp.received.filter(
          (mail) => mail.subject === row.subject && mail.to.includes(row.toAddress),
        )
        expect(sent, name).toBeTruthy()
        for (const token of tokens)
          expect(`${sent!.text}${sent!.html}${sent!.headers['list-unsubscribe']}`, name).toContain(token)
      }
      // The same requests with the email's own links do act: what refused them above was the hidden token.
      const [confirmToken, manageToken] = ['.confirm.', '.manage.'].map((purpose) =>
        mails[0]!.tokens.find((token) => token.includes(purpose))!,
      )
      const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token!)}`
      const confirmed = await request(withToken('/subscriptions/confirm', confirmToken!), {
        method: 'POST',
        headers: FORM,
        body: '',
      })
      expect(confirmed.status).toBe(200)
      const changed = await request(withToken('/subscriptions/manage', manageToken!), {
        method: 'POST',
        headers: FORM,
        body: 'intent=frequency&frequency=daily',
      })
      expect(changed.status).toBe(200)
      const [search] = await db.select().from(subscriptions).where(eq(subscriptions.id, before[0]!.id))
      expect(search).toMatchObject({ frequency: 'daily', confirmedAt: expect.any(Date) })
    },
    BUILD_TIMEOUT_MS,
  )
})
