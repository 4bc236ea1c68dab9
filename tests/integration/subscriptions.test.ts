/**
 * "Email me these events" and "Remind me": the forms post through the routes, the outbox is delivered to a real SMTP
 * server on loopback, and the links of what arrives are followed.
 */
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { action as subscribeAction } from '#app/routes/subscribe.tsx'
import { action as confirmAction, loader as confirmLoader } from '#app/routes/subscriptions.confirm.tsx'
import { action as manageAction, loader as manageLoader } from '#app/routes/subscriptions.manage.tsx'
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from '#app/routes/subscriptions.unsubscribe.tsx'
import { getOutboxMessage, listOutbox, SUBSCRIBER_RECIPIENT } from '#app/models/mail/outbox.server.ts'
import { SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { getEnv, resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { signSubscriptionToken } from '#app/services/subscriptions/subscription-tokens.server.ts'
import { queueDigests, queueReminders } from '#app/services/subscriptions/subscriber-jobs.server.ts'
import { EVENTS_PER_EMAIL } from '#app/models/subscriptions/subscription-matches.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { authAttempts, events, outbox, subscriptions, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { HOSTILE_EMAILS } from '#tests/support/hostile-emails.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TestSmtpServer, type ReceivedMail } from '#tests/support/smtp-server.ts'

const smtp = new TestSmtpServer()
const today = platformToday()
const VISITOR = 'Visitor@Example.org'
const visitor = VISITOR.toLowerCase()
let hall: Business

beforeAll(async () => {
  await smtp.start()
  hall = await insertBusiness(db, { businessName: 'Music Hall', businessZip: '62704' })
})

afterAll(async () => {
  await smtp.stop()
})

beforeEach(async () => {
  await db.delete(outbox)
  await db.delete(subscriptions)
  await db.delete(authAttempts)
  smtp.received.length = 0
})

function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return callRoute(subscribeAction, '/subscribe', {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  })
}

const subscribeJazz = (extra: Record<string, string> = {}) =>
  post({ kind: 'search', email: VISITOR, frequency: 'weekly', keyword: 'jazz', from: today, ...extra })

function linkIn(mail: ReceivedMail, path: string) {
  const found = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>]+`).exec(mail.text)?.[0]
  expect(found, `a ${path} link`).toBeTruthy()
  return new URL(found!)
}

/** The confirmation page's button: a POST to the link's own address. */
function pressConfirm(link: URL) {
  return callRoute(confirmAction, link.pathname + link.search, {
    method: 'POST',
    body: new URLSearchParams(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  })
}

async function confirmedSubscription() {
  expect((await subscribeJazz()).status).toBe(200)
  await smtp.deliverOutbox()
  const [mail] = smtp.to(visitor)
  const confirm = linkIn(mail!, '/subscriptions/confirm')
  expect((await pressConfirm(confirm)).status).toBe(200)
  smtp.received.length = 0
  await db.delete(outbox)
  return mail!
}

/** A live ad about jazz, approved `minutesAgo` ago (0 = now), on a date `inDays` from today. */
function jazzAd(title: string, overrides: Parameters<typeof insertTestEvent>[1] = {}, inDays = 3) {
  return insertTestEvent(hall, {
    eventTitle: title,
    eventDescription: `${title}: live jazz all evening.`,
    showAdOnDates: [addDaysIso(today, inDays)],
    reviewedAt: new Date(),
    ...overrides,
  })
}

describe('subscribing', () => {
  test('only a confirmation is sent, with RFC 8058 headers and no address in any link', async () => {
    const response = await subscribeJazz()
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.requested })
    const [row] = await db.select().from(subscriptions)
    expect(row).toMatchObject({ email: visitor, kind: 'search', frequency: 'weekly', confirmedAt: null })
    // Dates are replaced by "upcoming".
    expect(row!.filters).toMatchObject({ keyword: 'jazz', from: null, to: null })

    // No digest for an unconfirmed subscription, even with news.
    await jazzAd('Unconfirmed Jazz')
    expect((await queueDigests(['weekly', 'daily'])).queued).toBe(0)

    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to(visitor)
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Confirm your EventShout subscription')
    const unsubscribe = linkIn(mail!, '/subscriptions/unsubscribe')
    expect(mail!.headers['list-unsubscribe']).toBe(`<${unsubscribe.href}>`)
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    for (const link of mail!.text.match(/https?:\/\/\S+/g) ?? []) {
      expect(decodeURIComponent(link).toLowerCase()).not.toContain('example.org')
    }
    // Administrators see the email in the outbox, not the subscriber's address.
    const { messages } = await listOutbox(1)
    expect(messages.map((m) => m.toAddress)).toEqual([SUBSCRIBER_RECIPIENT])
    expect((await getOutboxMessage(messages[0]!.id))!.toAddress).toBe(SUBSCRIBER_RECIPIENT)
  })

  test('asking again says the same and sends nothing new once confirmed', async () => {
    await confirmedSubscription()
    const again = await subscribeJazz({ frequency: 'daily' })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.requested })
    await smtp.deliverOutbox()
    expect(smtp.received).toEqual([])
    expect(await db.select().from(subscriptions)).toHaveLength(1)
  })

  test('bad input is a 400 with the reason; an unknown or ended event cannot be reminded of', async () => {
    const bad = await post({ kind: 'search', email: 'not-an-address', frequency: 'weekly' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain(SUBSCRIPTION_TEXT.emailInvalid)
    const huge = await post({ kind: 'search', email: `${'a'.repeat(300)}@example.org`, frequency: 'weekly' })
    expect(huge.status).toBe(400)
    const frequency = await post({ kind: 'search', email: VISITOR, frequency: 'hourly' })
    expect(frequency.status).toBe(400)
    expect(JSON.stringify(await frequency.json())).toContain(SUBSCRIPTION_TEXT.frequencyInvalid)
    expect((await post({ kind: 'admin', email: VISITOR })).status).toBe(400)
    expect((await post({ kind: 'reminder', email: VISITOR, eventID: '99999999' })).status).toBe(404)
    const ended = await jazzAd('Ended Jazz', { showAdOnDates: [addDaysIso(today, -3)] })
    expect((await post({ kind: 'reminder', email: VISITOR, eventID: String(ended.eventID) })).status).toBe(
      404,
    )
    expect(await db.select().from(subscriptions)).toEqual([])
  })

  test('subscriptions per address per hour and confirmation emails per address per day are limited', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.9' }
    for (let i = 0; i < 10; i++) {
      const response = await post(
        { kind: 'search', email: VISITOR, frequency: 'weekly', keyword: `k${i}` },
        from,
      )
      expect(response.status).toBe(200)
    }
    const limited = await post({ kind: 'search', email: VISITOR, frequency: 'weekly', keyword: 'more' }, from)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/)
    // Ten searches asked for, three confirmation emails sent today.
    await smtp.deliverOutbox()
    expect(smtp.to(visitor)).toHaveLength(3)
  })
})

describe('email addresses', () => {
  test('an email field takes a plain address only: comments, names and brackets are a 400 that says so, and nothing is stored or sent', async () => {
    const event = await jazzAd('Hostile Jazz')
    for (const email of HOSTILE_EMAILS) {
      const forms: Array<Record<string, string>> = [
        { kind: 'search', email, frequency: 'weekly' },
        { kind: 'reminder', email, eventID: String(event.eventID) },
      ]
      for (const fields of forms) {
        const response = await post(fields)
        expect(response.status, `${fields.kind} ${email}`).toBe(400)
        expect(JSON.stringify(await response.json()), email).toContain(SUBSCRIPTION_TEXT.emailPlainOnly)
      }
    }
    expect(await db.select().from(subscriptions)).toEqual([])
    expect(await db.select().from(outbox)).toEqual([])
    // An apostrophe and a tag belong to plain addresses.
    const plain = await post({ kind: 'search', email: "O'Brien+news@example.com", frequency: 'weekly' })
    expect(plain.status).toBe(200)
  })

  test('one mailbox written twenty ways is one mailbox for the limit of confirmation emails', async () => {
    const limit = getEnv().CONFIRMATIONS_PER_EMAIL_PER_DAY
    const variants = Array.from(
      { length: 20 },
      (_, n) =>
        [`Box+${n}@Example.COM`, ` box+tag-${n}@example.com `, 'BOX@EXAMPLE.COM', 'box@example.com'][n % 4]!,
    )
    for (const [n, email] of variants.entries()) {
      // Each from its own network, so the limit per network is not what stops them.
      const response = await post(
        { kind: 'search', email, frequency: 'weekly', keyword: `k${n}` },
        { 'X-Forwarded-For': `198.51.100.${n + 1}` },
      )
      expect(response.status, email).toBe(200)
      expect(await response.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.requested })
    }
    await smtp.deliverOutbox()
    expect(smtp.received).toHaveLength(limit)
    // The address is stored as typed (trimmed, lower-cased), its tag kept: only the limit reads the mailbox.
    const stored = new Set((await db.select().from(subscriptions)).map((row) => row.email))
    expect(stored).toContain('box+0@example.com')
    expect(stored).toContain('box+tag-1@example.com')
    expect(stored).toContain('box@example.com')
  })
})

describe('links', () => {
  test('a tampered, expired or foreign token is a 400 page that says what to do', async () => {
    await subscribeJazz()
    await smtp.deliverOutbox()
    const confirm = linkIn(smtp.to(visitor)[0]!, '/subscriptions/confirm')
    const token = confirm.searchParams.get('token')!
    const [row] = await db.select().from(subscriptions)
    const tampered = [
      token.replace(/^\d+/, String(row!.id + 1)),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      '',
      'x'.repeat(5000),
      signSubscriptionToken(row!.id, 'confirm', new Date(Date.now() - 49 * 60 * 60 * 1000)),
      // A manage token does not confirm.
      signSubscriptionToken(row!.id, 'manage'),
    ]
    for (const bad of tampered) {
      const response = await callRoute(
        confirmLoader,
        `/subscriptions/confirm?token=${encodeURIComponent(bad)}`,
      )
      expect(response.status, bad.slice(0, 40)).toBe(400)
      expect(await response.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.invalidLink })
    }
    const manage = await callRoute(manageLoader, `/subscriptions/manage?token=${encodeURIComponent(token)}`)
    expect(manage.status).toBe(400)
    expect((await db.select().from(subscriptions))[0]!.confirmedAt).toBeNull()
  })

  test('following the confirmation link (GET) changes nothing: the page tells what it confirms, its button posts', async () => {
    await subscribeJazz()
    await smtp.deliverOutbox()
    const confirm = linkIn(smtp.to(visitor)[0]!, '/subscriptions/confirm')
    const path = confirm.pathname + confirm.search
    // A mail provider's link scanner fetches every link, maybe more than once.
    for (const method of ['GET', 'HEAD', 'GET']) {
      const page = await callRoute(confirmLoader, path, { method })
      expect(page.status, method).toBe(200)
      expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
      expect(page.headers.get('Cache-Control')).toBe('no-store')
      expect(await page.json()).toMatchObject({
        what: 'Upcoming events: Keyword “jazz”',
        frequencyLabel: 'Weekly digest',
        confirmed: false,
        manageHref: null,
      })
    }
    expect((await db.select().from(subscriptions))[0]!.confirmedAt).toBeNull()

    const confirmed = await pressConfirm(confirm)
    expect(confirmed.status).toBe(200)
    expect(confirmed.headers.get('Referrer-Policy')).toBe('no-referrer')
    const { manageHref } = (await confirmed.json()) as { manageHref: string }
    expect(manageHref).toMatch(/^\/subscriptions\/manage\?token=/)
    expect((await db.select().from(subscriptions))[0]!.confirmedAt).not.toBeNull()
    // Once confirmed, the link shows so and leads to the manage page.
    expect(await (await callRoute(confirmLoader, path)).json()).toMatchObject({ confirmed: true, manageHref })
    // A tampered token confirms nothing by POST either.
    const forged = await callRoute(
      confirmAction,
      `/subscriptions/confirm?token=${encodeURIComponent('1.confirm.9999999999.forged')}`,
      {
        method: 'POST',
      },
    )
    expect(forged.status).toBe(400)
  })

  test('the manage page shows the address and the search, and changes the frequency', async () => {
    const mail = await confirmedSubscription()
    const manage = linkIn(mail, '/subscriptions/manage')
    const page = await callRoute(manageLoader, manage.pathname + manage.search)
    expect(page.status).toBe(200)
    expect(await page.json()).toMatchObject({
      subscription: {
        email: visitor,
        what: 'Upcoming events: Keyword “jazz”',
        frequency: 'weekly',
        confirmed: true,
      },
    })
    const changed = await callRoute(manageAction, manage.pathname + manage.search, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'frequency', frequency: 'daily' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(changed.status).toBe(200)
    expect((await db.select().from(subscriptions))[0]!.frequency).toBe('daily')
    const bad = await callRoute(manageAction, manage.pathname + manage.search, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'frequency', frequency: 'never' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(bad.status).toBe(400)
  })

  test('one-click unsubscribe by POST deletes the row; again answers the same; GET deletes nothing', async () => {
    const mail = await confirmedSubscription()
    const unsubscribe = linkIn(mail, '/subscriptions/unsubscribe')
    const path = unsubscribe.pathname + unsubscribe.search
    expect((await callRoute(unsubscribeLoader, path)).status).toBe(200)
    expect(await db.select().from(subscriptions)).toHaveLength(1)
    const oneClick = () =>
      callRoute(unsubscribeAction, path, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
    const response = await oneClick()
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.unsubscribed })
    expect(await db.select().from(subscriptions)).toEqual([])
    expect((await oneClick()).status).toBe(200)
    const manage = linkIn(mail, '/subscriptions/manage')
    expect((await callRoute(manageLoader, manage.pathname + manage.search)).status).toBe(404)
  })
})

describe('links in production', () => {
  const PRODUCTION = {
    APP_ENV: 'production',
    PUBLIC_URL: 'https://events.example',
    ALLOW_NO_IDENTITY_PROVIDER: 'true',
  } as const
  const saved = Object.fromEntries(Object.keys(PRODUCTION).map((name) => [name, process.env[name]]))
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    resetEnvCache()
  }
  beforeAll(() => setEnv(PRODUCTION))
  afterAll(() => setEnv(saved))

  const linksOf = (text: string) => text.match(/https?:\/\/[^\s"<>)]+/g) ?? []

  test('come from PUBLIC_URL, never from the Host a request came with', async () => {
    // What server.js hands the app for `POST /subscribe` sent with `Host: evil.example` and no Origin (curl).
    const response = await callRoute(subscribeAction, 'http://evil.example/subscribe', {
      method: 'POST',
      body: new URLSearchParams({ kind: 'search', email: VISITOR, frequency: 'weekly', keyword: 'jazz' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Host: 'evil.example' },
    })
    expect(response.status).toBe(200)
    const [message, ...more] = await db.select().from(outbox)
    expect(more).toEqual([])
    expect(JSON.stringify(message)).not.toContain('evil.example')
    const links = [...linksOf(message!.textBody), ...linksOf(message!.htmlBody)]
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(link).toMatch(/^https:\/\/events\.example\//)
  })

  test('of the jobs’ emails (digests, reminders) come from PUBLIC_URL, not this machine', async () => {
    await confirmedSubscription()
    const ad = await jazzAd('Production Jazz', {
      showAdOnDates: [addDaysIso(today, 1)],
      reviewedAt: new Date(Date.now() + 1000),
    })
    expect((await post({ kind: 'reminder', email: VISITOR, eventID: String(ad.eventID) })).status).toBe(200)
    const [reminder] = await db.select().from(subscriptions).where(eq(subscriptions.kind, 'reminder'))
    await db.update(subscriptions).set({ confirmedAt: new Date() }).where(eq(subscriptions.id, reminder!.id))
    await db.delete(outbox)
    expect((await queueDigests(['weekly'], new Date(Date.now() + 2000))).queued).toBe(1)
    expect((await queueReminders()).queued).toBe(1)
    const queued = await db.select().from(outbox)
    expect(queued.map((m) => m.kind).sort()).toEqual(['subscription-digest', 'subscription-reminder'])
    for (const message of queued) {
      expect(JSON.stringify(message), message.kind).not.toContain('localhost')
      const links = linksOf(message.textBody)
      expect(links.length, message.kind).toBeGreaterThan(0)
      for (const link of links) expect(link, message.kind).toMatch(/^https:\/\/events\.example\//)
    }
  })
})

describe('digests', () => {
  test('queue exactly the new matching live ads, none when nothing is new, never twice for one period', async () => {
    // The ads of earlier tests were approved long before this subscription's mark, however quick they were.
    await db.update(events).set({ reviewedAt: new Date(Date.now() - 60 * 60 * 1000) })
    await confirmedSubscription()
    const before = await jazzAd('Old Jazz', { reviewedAt: new Date(Date.now() - 60_000) })
    await new Promise((resolve) => setTimeout(resolve, 5))
    await db
      .update(subscriptions)
      .set({ coveredUntil: new Date(Date.now() - 1000), confirmedAt: new Date(Date.now() - 1000) })
    const fresh = await jazzAd('Fresh Jazz')
    await jazzAd('Rejected Jazz', { eventStatus: 'rejected' })
    await jazzAd('Ended Jazz', { showAdOnDates: [addDaysIso(today, -2)] })
    await jazzAd('Unpaid Jazz', { paymentStatus: 'pending', eventStatus: 'pending' })
    await insertTestEvent(hall, {
      eventTitle: 'Fresh Folk',
      eventDescription: 'Folk songs.',
      reviewedAt: new Date(),
      showAdOnDates: [addDaysIso(today, 2)],
    })

    const run = await queueDigests(['weekly', 'daily'])
    expect(run).toMatchObject({ checked: 1, queued: 1 })
    await smtp.deliverOutbox()
    const [digest, ...more] = smtp.to(visitor)
    expect(more).toEqual([])
    expect(digest!.subject).toBe('1 new event for your EventShout search')
    expect(digest!.text).toContain('Fresh Jazz')
    expect(digest!.text).toContain(`/event/${fresh.eventID}-fresh-jazz`)
    for (const absent of ['Rejected Jazz', 'Ended Jazz', 'Unpaid Jazz', 'Fresh Folk'])
      expect(digest!.text).not.toContain(absent)
    // The weekly digest also lists what is on in the coming week.
    expect(digest!.text).toContain('On in the coming week:')
    expect(digest!.text).toContain(before.eventTitle)
    expect(digest!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')

    // Nothing new: nothing queued.
    expect((await queueDigests(['weekly', 'daily'])).queued).toBe(0)
    // A new ad the same day: the period has had its email.
    await jazzAd('Later Jazz')
    expect((await queueDigests(['weekly', 'daily'])).queued).toBe(0)
    // The next day's run tells about it.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000)
    expect((await queueDigests(['weekly', 'daily'], tomorrow)).queued).toBe(1)
    const [nextDay] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.kind, 'subscription-digest'))
      .orderBy(desc(outbox.id))
      .limit(1)
    const news = nextDay!.textBody.split('On in the coming week:')[0]!
    expect(news).toContain('Later Jazz')
    expect(news).not.toContain('Fresh Jazz')
  })

  test('a weekly digest with more news than one email holds still lists what is on in the coming week', async () => {
    await confirmedSubscription()
    const onThisWeek = await jazzAd('Jazz This Week', { reviewedAt: new Date(Date.now() - 60_000) }, 2)
    await db.update(subscriptions).set({ coveredUntil: new Date(Date.now() - 1000) })
    // Twice as many new ads as one email lists, all later than the coming week.
    for (let n = 1; n <= 2 * EVENTS_PER_EMAIL; n++) await jazzAd(`New Jazz ${n}`, {}, 10 + (n % 5))
    expect(await queueDigests(['weekly'])).toMatchObject({ checked: 1, queued: 1 })
    const [digest] = await db.select().from(outbox).where(eq(outbox.kind, 'subscription-digest'))
    const [news, comingWeek] = digest!.textBody.split('On in the coming week:')
    expect(new Set(news!.match(/\/event\/\d+/g)).size).toBe(EVENTS_PER_EMAIL)
    expect(comingWeek).toContain(onThisWeek.eventTitle)
  })

  test('subscribers of the same search each get their own digest', async () => {
    await confirmedSubscription()
    const [first] = await db.select().from(subscriptions)
    const { id: _id, ...copy } = first!
    await db.insert(subscriptions).values({ ...copy, email: 'second@example.net' })
    await jazzAd('Shared Jazz', { reviewedAt: new Date(Date.now() + 1000) })
    const run = await queueDigests(['weekly'], new Date(Date.now() + 2000))
    expect(run).toMatchObject({ checked: 2, queued: 2 })
    const queued = await db.select().from(outbox).where(eq(outbox.kind, 'subscription-digest'))
    expect(queued.map((m) => m.toAddress).sort()).toEqual(['second@example.net', visitor])
  })

  test('a search saved before the practical facts existed still gets its digest, filtering by none of them', async () => {
    await confirmedSubscription()
    const [saved] = await db.select().from(subscriptions)
    const {
      free: _free,
      online: _online,
      access: _access,
      ...older
    } = saved!.filters as Record<string, unknown>
    await db.update(subscriptions).set({ filters: older })
    await jazzAd('Jazz Without Facts', { reviewedAt: new Date(Date.now() + 1000) })
    const run = await queueDigests(['weekly'], new Date(Date.now() + 2000))
    expect(run).toMatchObject({ checked: 1, queued: 1 })
  })

  test('a weekly subscriber is not in a daily run', async () => {
    await confirmedSubscription()
    await jazzAd('Daily Jazz', { reviewedAt: new Date(Date.now() + 1000) })
    expect((await queueDigests(['daily'], new Date(Date.now() + 2000))).checked).toBe(0)
  })
})

describe('reminders', () => {
  async function confirmedReminder(eventID: number) {
    expect((await post({ kind: 'reminder', email: VISITOR, eventID: String(eventID) })).status).toBe(200)
    await smtp.deliverOutbox()
    const [mail] = smtp.to(visitor)
    expect(mail!.subject).toBe('Confirm your EventShout subscription')
    const confirm = linkIn(mail!, '/subscriptions/confirm')
    expect((await pressConfirm(confirm)).status).toBe(200)
    smtp.received.length = 0
  }

  test('goes out once, the day before, naming the event, when, where, with its link', async () => {
    const ad = await jazzAd('Tomorrow Jazz', { showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 4)] })
    await confirmedReminder(ad.eventID)
    expect((await queueReminders()).queued).toBe(1)
    expect((await queueReminders()).queued).toBe(0)
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to(visitor).filter((m) => m.subject.startsWith('Tomorrow'))
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Tomorrow: Tomorrow Jazz')
    expect(mail!.text).toContain('Music Hall')
    expect(mail!.text).toContain('(tomorrow)')
    expect(mail!.text).toContain(`/event/${ad.eventID}-tomorrow-jazz`)
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    expect(await db.select().from(subscriptions)).toEqual([])
  })

  test('waits until the day before, and is not sent for an ad taken down', async () => {
    const later = await jazzAd('Later Jazz', { showAdOnDates: [addDaysIso(today, 5)] })
    await confirmedReminder(later.eventID)
    expect((await queueReminders()).queued).toBe(0)
    const fourDaysOn = new Date(Date.now() + 4 * 24 * 60 * 60 * 1000)
    await db.update(events).set({ eventStatus: 'rejected' }).where(eq(events.eventID, later.eventID))
    expect((await queueReminders(fourDaysOn)).queued).toBe(0)
    await db.update(events).set({ eventStatus: 'approved' }).where(eq(events.eventID, later.eventID))
    expect((await queueReminders(fourDaysOn)).queued).toBe(1)
  })
})
