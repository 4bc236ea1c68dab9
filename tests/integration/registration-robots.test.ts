/** The registration form's robot guard: the honeypot, the stamp cookie and the minimum fill time. */
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { action as createAccountAction, loader as createAccountLoader } from '#app/routes/create-account.tsx'
import { formStamp } from '#app/services/moderation/robot-guard.server.ts'
import { db } from '#db/client.server.ts'
import { business } from '#db/schema.ts'
import { callRoute } from '#tests/support/routes.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'

/** What every refused post reads, whichever check refused it: what a person does next, nothing a robot can use. */
const REFUSAL = 'Please check your details and press Create Account again.'

let counter = 0
const payload = () => registrationFields(`robot${++counter}.${Date.now()}@bluedoor.example`)

/** A post of the registration form with its stamp cookie (a person's pace by default; null: none). */
function postPage(
  fields: Record<string, string>,
  { stamp = formStamp(Date.now() - 60_000) }: { stamp?: string | null } = {},
) {
  return callRoute(createAccountAction, '/create-account', {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(stamp === null ? {} : { Cookie: `signup_started=${stamp}` }),
    },
  })
}

/** The stamp in the registration page's Set-Cookie (null when it set none). */
function stampSetBy(res: Response) {
  return /signup_started=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1] ?? null
}

async function expectNeutralRefusal(res: Response, email: string) {
  expect(res.status).toBe(400)
  const body = (await res.json()) as { result: { error?: Record<string, string[]> } }
  expect(body.result.error?.['']).toEqual([REFUSAL])
  const [row] = await db.select().from(business).where(eq(business.businessEmail, email.toLowerCase()))
  expect(row).toBeUndefined()
}

describe('the registration form refuses robots without telling them why', () => {
  test('a filled honeypot field is refused with a neutral message', async () => {
    const fields = payload()
    const res = await postPage({ ...fields, nickname: 'bot' })
    await expectNeutralRefusal(res, fields.businessEmail)
  })

  test('a quick robotic post (form drawn a moment ago) is refused without saying why', async () => {
    const page = await callRoute(createAccountLoader, '/create-account')
    const stamp = stampSetBy(page)
    expect(page.headers.get('Set-Cookie')).toMatch(/; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/)
    const fields = payload()
    await expectNeutralRefusal(await postPage(fields, { stamp }), fields.businessEmail)
    // The same form a person fills in at a person's pace is accepted.
    expect((await postPage(fields, { stamp: formStamp(Date.now() - 5_000) })).status).toBe(302)
  })

  test('the page keeps a usable stamp (a corrected form is not refused as too quick) and replaces a bad one', async () => {
    const usable = formStamp(Date.now() - 60_000)
    const again = await callRoute(createAccountLoader, '/create-account', {
      headers: { Cookie: `signup_started=${usable}` },
    })
    expect(stampSetBy(again)).toBeNull()
    for (const bad of [`${usable.split('.')[0]}.forged`, formStamp(Date.now() - 25 * 3_600_000)]) {
      const page = await callRoute(createAccountLoader, '/create-account', {
        headers: { Cookie: `signup_started=${bad}` },
      })
      expect(stampSetBy(page)).toMatch(/^\d+\.[\w-]+\.[\w-]+$/)
    }
  })

  test('a missing, tampered, future or day-old form stamp is refused the same way', async () => {
    const genuine = formStamp(Date.now() - 60_000)
    const [issuedAt, signature] = genuine.split('.')
    for (const stamp of [
      null,
      '',
      'x'.repeat(5000),
      `${Number(issuedAt) - 3_600_000}.${signature}`,
      `${issuedAt}.forged`,
      formStamp(Date.now() + 60_000),
      formStamp(Date.now() - 25 * 3_600_000),
    ]) {
      const fields = payload()
      await expectNeutralRefusal(await postPage(fields, { stamp }), fields.businessEmail)
    }
    // In the form instead of the cookie, it counts for nothing.
    const fields = payload()
    await expectNeutralRefusal(
      await postPage({ ...fields, formStartedAt: genuine }, { stamp: null }),
      fields.businessEmail,
    )
  })
})

describe('a person refused by the robot check is told what to do, and the next press goes through', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A moment passes: the clock moves on by `ms` (only the clock; timers keep running). */
  function later(ms: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms })
  }

  test('a press within three seconds (autofill) reads what to do and keeps what was typed; pressing again passes', async () => {
    const fields = payload()
    const first = await postPage(fields, { stamp: formStamp(Date.now() - 1_000) })
    expect(first.status).toBe(400)
    const body = (await first.json()) as {
      result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
    }
    expect(body.result.error?.['']).toEqual([REFUSAL])
    expect(body.result.initialValue).toMatchObject({
      businessName: fields.businessName,
      businessEmail: fields.businessEmail,
      businessPhone: fields.businessPhone,
    })
    expect(body.result.initialValue).not.toHaveProperty('businessPassword')
    later(4_000)
    // The browser sends its stamp cookie again: the one the refusal set, else the one it had.
    const stamp = stampSetBy(first) ?? formStamp(Date.now() - 5_000)
    expect((await postPage(fields, { stamp })).status).toBe(302)
  })

  test('a press without a usable stamp (the page left open past a day) gets a fresh one with the refusal', async () => {
    for (const stamp of [null, formStamp(Date.now() - 25 * 3_600_000)]) {
      vi.useRealTimers()
      const fields = payload()
      const first = await postPage(fields, { stamp })
      await expectNeutralRefusal(first, fields.businessEmail)
      const fresh = stampSetBy(first)
      expect(fresh).toMatch(/^\d+\.[\w-]+\.[\w-]+$/)
      expect(first.headers.get('Set-Cookie')).toMatch(/; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/)
      later(4_000)
      expect((await postPage(fields, { stamp: fresh })).status).toBe(302)
    }
  })

  test('a robot learns nothing from the refusal: every check answers the same text', async () => {
    const answers = new Set<string>()
    for (const [extra, stamp] of [
      [{ nickname: 'bot' }, formStamp(Date.now() - 60_000)],
      [{}, formStamp(Date.now() - 500)],
      [{}, null],
      [{}, 'x.forged'],
    ] as const) {
      const res = await postPage({ ...payload(), ...extra }, { stamp })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { result: { error?: Record<string, string[]> } }
      answers.add(JSON.stringify(body.result.error))
    }
    expect([...answers]).toEqual([JSON.stringify({ '': [REFUSAL] })])
  })
})
