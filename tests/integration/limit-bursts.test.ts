/**
 * Thirty requests at once against each rate limit and cap, through the routes: exactly the cap gets through and the
 * rest are refused as one at a time would be. On a PostgreSQL server (DATABASE_URL) they run on separate
 * connections, so only the database's one statement per attempt keeps a burst from slipping past the count.
 */
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { INVALID_CREDENTIALS_MESSAGE } from '#app/models/accounts/sign-in-rules.ts'
import { SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { action as registerAction } from '#app/routes/api.business.ts'
import { action as apiLoginAction } from '#app/routes/api.business.login.ts'
import * as reportRoute from '#app/routes/event.$id_.report.tsx'
import { action as subscribeAction } from '#app/routes/subscribe.tsx'
import { formStamp, NEUTRAL_REFUSAL } from '#app/services/moderation/robot-guard.server.ts'
import { REPORTS_PER_ADDRESS } from '#app/services/moderation/reports.server.ts'
import { getEnv, resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import {
  ACCOUNT_SLOWDOWN_AFTER_FAILURES,
  SIGN_IN_MAX_FAILURES,
} from '#app/services/platform/rate-limit.server.ts'
import { HASH_QUEUE_LENGTH, HASHES_IN_FLIGHT } from '#app/utils/password.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { adReports, authAttempts, business, outbox, subscriptions, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'
import { callRoute } from '#tests/support/routes.ts'

const PARALLEL = 30
const today = platformToday()
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const PASSWORD = 'correct-horse'

/** `PARALLEL` requests started together. */
const burst = (request: (i: number) => Promise<Response>) =>
  Promise.all(Array.from({ length: PARALLEL }, (_, i) => request(i)))

/** How many answers had each status, e.g. `{ 200: 10, 429: 20 }`. */
function statusCounts(answers: Response[]) {
  const counts: Record<number, number> = {}
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

/** Every refusal says to come back later, with a Retry-After in whole seconds, and the limit's own text. */
async function expectRefusals(answers: Response[], text: RegExp) {
  const refused = answers.filter((r) => r.status === 429)
  for (const answer of refused) {
    expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await answer.clone().text()).toMatch(text)
  }
}

const confirmationsQueued = () =>
  db
    .select()
    .from(outbox)
    .where(eq(outbox.kind, 'subscription-confirm'))
    .then((rows) => rows.length)

beforeEach(async () => {
  await db.delete(outbox)
  await db.delete(subscriptions)
  await db.delete(authAttempts)
})

describe('subscriptions per address, follows and reminders included', () => {
  let hall: Business
  let reminded: number

  beforeAll(async () => {
    hall = await insertBusiness(db, { businessName: 'Burst Hall' })
    const live = await insertTestEvent(hall, {
      showAdOnDates: [addDaysIso(today, 2)],
      reviewedAt: new Date(),
    })
    reminded = live.eventID
  })

  function subscribe(fields: Record<string, string>, ip: string) {
    return callRoute(subscribeAction, '/subscribe', {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip },
    })
  }

  type Form = (i: number) => Record<string, string>
  const kinds: Form[] = [
    (i) => ({ kind: 'search', email: `search${i}@burst.example`, frequency: 'weekly', keyword: `k${i}` }),
    (i) => ({ kind: 'reminder', email: `remind${i}@burst.example`, eventID: String(reminded) }),
    (i) => ({ kind: 'business', email: `follow${i}@burst.example`, businessID: String(hall.businessID) }),
  ]
  const forms: Record<string, Form> = {
    search: kinds[0]!,
    reminder: kinds[1]!,
    follow: kinds[2]!,
    // The three kinds in one burst: they share the one limit.
    mixed: (i) => kinds[i % 3]!(i),
  }

  test.each(Object.keys(forms))(
    `${PARALLEL} at once from one address (%s): exactly the cap asked for, the rest 429 with Retry-After`,
    async (kind) => {
      const cap = getEnv().SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR
      const answers = await burst((i) => subscribe(forms[kind]!(i), '203.0.113.50'))
      expect(statusCounts(answers)).toEqual({ 200: cap, 429: PARALLEL - cap })
      for (const accepted of answers.filter((r) => r.status === 200))
        expect(await accepted.clone().json()).toMatchObject({ message: SUBSCRIPTION_TEXT.requested })
      await expectRefusals(answers, /Too many subscriptions were asked for from your network/)
      expect(await db.select().from(subscriptions)).toHaveLength(cap)
      expect(await confirmationsQueued()).toBe(cap)
      // Another address is not held back by this one's burst.
      expect((await subscribe(forms[kind]!(PARALLEL), '203.0.113.51')).status).toBe(200)
    },
  )

  test(`${PARALLEL} at once for one mailbox written many ways, from as many addresses: exactly the cap of confirmation emails`, async () => {
    const cap = getEnv().CONFIRMATIONS_PER_EMAIL_PER_DAY
    const mailbox = (i: number) =>
      [`Box+${i}@Burst.EXAMPLE`, ` box+tag-${i}@burst.example `, 'BOX@BURST.EXAMPLE', 'box@burst.example'][
        i % 4
      ]!
    const answers = await burst((i) =>
      subscribe({ ...kinds[i % 3]!(i), email: mailbox(i) }, `198.51.100.${i + 1}`),
    )
    // Every answer is the same, so nobody learns that the mailbox had its emails for the day.
    expect(statusCounts(answers)).toEqual({ 200: PARALLEL })
    for (const answer of answers)
      expect(await answer.json()).toMatchObject({ message: SUBSCRIPTION_TEXT.requested })
    expect(await confirmationsQueued()).toBe(cap)
  })
})

describe('registrations per address', () => {
  // Under what password hashing lets run and wait at once, so the limit, not hashing's 503, is what refuses.
  const CAP = 5
  const saved = process.env.REGISTRATIONS_PER_ADDRESS_PER_HOUR
  beforeAll(() => {
    process.env.REGISTRATIONS_PER_ADDRESS_PER_HOUR = String(CAP)
    resetEnvCache()
  })
  afterAll(() => {
    if (saved === undefined) delete process.env.REGISTRATIONS_PER_ADDRESS_PER_HOUR
    else process.env.REGISTRATIONS_PER_ADDRESS_PER_HOUR = saved
    resetEnvCache()
  })

  function register(i: number, ip: string) {
    return callRoute(registerAction, '/api/business', {
      method: 'POST',
      body: JSON.stringify(registrationFields(`owner${i}.${ip}@burst-register.example`)),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    })
  }

  test(`${PARALLEL} at once from one address: exactly the cap of accounts, the rest 429 with Retry-After`, async () => {
    expect(CAP).toBeLessThanOrEqual(HASHES_IN_FLIGHT + HASH_QUEUE_LENGTH)
    expect(getEnv().REGISTRATIONS_PER_ADDRESS_PER_HOUR).toBe(CAP)
    const answers = await burst((i) => register(i, '203.0.113.60'))
    expect(statusCounts(answers)).toEqual({ 201: CAP, 429: PARALLEL - CAP })
    await expectRefusals(answers, /Too many accounts were created from your address/)
    const created = await db
      .select()
      .from(business)
      .where(like(business.businessEmail, '%203.0.113.60@burst-register.example'))
    expect(created).toHaveLength(CAP)
    expect((await register(0, '203.0.113.61')).status).toBe(201)
  })
})

describe('failed sign-ins', () => {
  function signIn(email: string, password: string, ip: string) {
    return callRoute(apiLoginAction, '/api/business/login', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    })
  }

  async function expectWrongPasswords(answers: Response[]) {
    for (const answer of answers.filter((r) => r.status === 401))
      expect(await answer.clone().json()).toMatchObject({ message: INVALID_CREDENTIALS_MESSAGE })
    await expectRefusals(answers, /Too many failed sign-in attempts/)
  }

  test(`${PARALLEL} wrong passwords at once at one account from one address: only the limit's worth are checked`, async () => {
    const owner = await insertBusiness(db, { businessName: 'Burst Login Cafe', password: PASSWORD })
    // The email as people type it: its case and spaces do not make another count.
    const written = (i: number) =>
      [owner.businessEmail, owner.businessEmail.toUpperCase(), ` ${owner.businessEmail} `][i % 3]!
    const answers = await burst((i) => signIn(written(i), `wrong-${i}`, '203.0.113.70'))
    expect(statusCounts(answers)).toEqual({ 401: SIGN_IN_MAX_FAILURES, 429: PARALLEL - SIGN_IN_MAX_FAILURES })
    await expectWrongPasswords(answers)
    // Those failures count: the right password from that address waits out the window too.
    expect((await signIn(owner.businessEmail, PASSWORD, '203.0.113.70')).status).toBe(429)
    expect((await signIn(owner.businessEmail, PASSWORD, '203.0.113.71')).status).toBe(200)
  })

  test(`${PARALLEL} wrong passwords at once from as many addresses, near the account's ceiling: the ceiling holds and the owner still signs in`, async () => {
    const owner = await insertBusiness(db, { businessName: 'Burst Guessed Cafe', password: PASSWORD })
    const email = owner.businessEmail
    expect((await signIn(email, PASSWORD, '198.51.100.200')).status).toBe(200)
    const before = 15
    for (let i = 0; i < before; i++)
      expect((await signIn(email, `early-${i}`, `192.0.2.${i % 3}`)).status).toBe(401)

    const answers = await burst((i) => signIn(email, `burst-${i}`, `203.0.113.${100 + i}`))
    // The failures left under the ceiling, and past it one attempt per interval for addresses new to the account.
    const checked = ACCOUNT_SLOWDOWN_AFTER_FAILURES - before + 1
    expect(statusCounts(answers)).toEqual({ 401: checked, 429: PARALLEL - checked })
    await expectWrongPasswords(answers)
    expect((await signIn(email, PASSWORD, '198.51.100.200')).status).toBe(200)
  })
})

describe('reports per address', () => {
  let owner: Business
  beforeAll(async () => {
    owner = await insertBusiness(db, { businessName: 'Burst Reported Venue' })
  })

  const liveAd = () => insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, 1)] })

  function report(eventID: number, ip: string, stamp = formStamp(Date.now() - 60_000)) {
    const id = String(eventID)
    return callRoute(reportRoute.action, `/event/${id}/report`, {
      method: 'POST',
      params: { id },
      body: new URLSearchParams({ formStartedAt: stamp, reason: 'misleading' }),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': ip,
        'User-Agent': BROWSER,
      },
    })
  }

  const reportsOf = (eventIDs: number[]) =>
    db
      .select()
      .from(adReports)
      .then((rows) => rows.filter((r) => eventIDs.includes(r.eventID)).length)

  test(`${PARALLEL} at once from one address, each on its own ad: exactly the cap filed, the rest 429`, async () => {
    const ads = await Promise.all(Array.from({ length: PARALLEL }, liveAd))
    const answers = await burst((i) => report(ads[i]!.eventID, '203.0.113.80'))
    expect(statusCounts(answers)).toEqual({ 302: REPORTS_PER_ADDRESS, 429: PARALLEL - REPORTS_PER_ADDRESS })
    await expectRefusals(answers, /Too many reports from your address/)
    expect(await reportsOf(ads.map((ad) => ad.eventID))).toBe(REPORTS_PER_ADDRESS)
  })

  test(`${PARALLEL} at once from one address with one form's stamp: one report, the others refused`, async () => {
    const ads = await Promise.all(Array.from({ length: PARALLEL }, liveAd))
    const stamp = formStamp(Date.now() - 60_000)
    const answers = await burst((i) => report(ads[i]!.eventID, '203.0.113.81', stamp))
    const { 302: filed, 400: reused = 0, 429: limited = 0, ...other } = statusCounts(answers)
    expect({ filed, other }).toEqual({ filed: 1, other: {} })
    expect(reused + limited).toBe(PARALLEL - 1)
    for (const answer of answers.filter((r) => r.status === 400))
      expect(await answer.clone().text()).toContain(NEUTRAL_REFUSAL)
    expect(await reportsOf(ads.map((ad) => ad.eventID))).toBe(1)
  })
})
