/**
 * Limits that span addresses or accounts: many addresses guessing at one account are slowed down together (while
 * an address that signed in before is not), and one address cannot create accounts without end.
 */
import { describe, expect, test } from 'vitest'
import { DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR } from '#app/constants.ts'
import { action as registerAction } from '#app/routes/api.business.ts'
import { action as apiLoginAction } from '#app/routes/api.business.login.ts'
import { ACCOUNT_SLOWDOWN_AFTER_FAILURES, SIGN_IN_MAX_FAILURES } from '#app/services/platform/rate-limit.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { callRoute } from '#tests/support/routes.ts'

const PASSWORD = 'correct-horse'

function signIn(email: string, password: string, ip: string) {
  return callRoute(apiLoginAction, '/api/business/login', {
    method: 'POST',
    body: JSON.stringify({ email, password }),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
  })
}

let counter = 0
function register(ip: string) {
  counter++
  return callRoute(registerAction, '/api/business', {
    method: 'POST',
    body: JSON.stringify({
      businessName: 'Limited Cafe',
      businessAddress: '12 Main Street',
      businessCity: 'Springfield',
      businessState: 'IL',
      businessZip: '62701',
      businessPhone: '2175550123',
      businessEmail: `owner${counter}.${Date.now()}@limited.example`,
      businessPassword: 'secret123',
      verifyPassword: 'secret123',
      businessContact: 'Pat Owner',
    }),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
  })
}

describe('failed sign-ins at one account from many addresses', () => {
  test('slow down every new address once the account ceiling is reached, but not the owner’s known address', async () => {
    const owner = await insertBusiness(db, { businessName: 'Guessed Cafe', password: PASSWORD })
    const email = owner.businessEmail
    // The owner signed in from this address before the attack.
    expect((await signIn(email, PASSWORD, '198.51.100.1')).status).toBe(200)

    // Each attacking address stays under its own limit; together they reach the account's.
    const perAddress = SIGN_IN_MAX_FAILURES - 1
    let failures = 0
    for (let a = 1; failures < ACCOUNT_SLOWDOWN_AFTER_FAILURES; a++) {
      const guesses = Math.min(perAddress, ACCOUNT_SLOWDOWN_AFTER_FAILURES - failures)
      const answers = await Promise.all(
        Array.from({ length: guesses }, (_, g) => signIn(email, `wrong-${a}-${g}`, `203.0.113.${a}`)),
      )
      expect(answers.map((r) => r.status)).toEqual(Array(guesses).fill(401))
      failures += guesses
    }

    // Past the ceiling, new addresses share one attempt per interval: of ten at once, one is let through.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(email, `burst-${i}`, `192.0.2.${i + 1}`)),
    )
    const statuses = burst.map((r) => r.status).sort()
    expect(statuses).toEqual([401, ...Array(9).fill(429)])
    const refused = burst.find((r) => r.status === 429)!
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(/Too many failed sign-in attempts/),
    })

    // The owner is not locked out: the known address signs in at once.
    const ownerAgain = await signIn(email, PASSWORD, '198.51.100.1')
    expect(ownerAgain.status).toBe(200)

    // Another account is not affected.
    const other = await insertBusiness(db, { businessName: 'Other Cafe', password: PASSWORD })
    expect((await signIn(other.businessEmail, PASSWORD, '192.0.2.200')).status).toBe(200)
  })
})

describe('registration per address', () => {
  test(`allows ${DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR} accounts per address and window, then 429 with Retry-After`, async () => {
    for (let i = 0; i < DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR; i++) {
      const created = await register('203.0.113.77')
      expect(created.status, await created.clone().text()).toBe(201)
    }
    const refused = await register('203.0.113.77')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ message: expect.stringMatching(/Too many accounts/) })
    // Another address may still register.
    expect((await register('203.0.113.78')).status).toBe(201)
  })
})
