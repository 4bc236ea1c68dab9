/** The registration form's robot guard: the honeypot, the stamp cookie and the minimum fill time. */
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { action as createAccountAction, loader as createAccountLoader } from '#app/routes/create-account.tsx'
import { formStamp } from '#app/services/moderation/robot-guard.server.ts'
import { db } from '#db/client.server.ts'
import { business } from '#db/schema.ts'
import { callRoute } from '#tests/support/routes.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'

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
  expect(body.result.error?.['']).toEqual(['Your submission could not be processed.'])
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
      expect(stampSetBy(page)).toMatch(/^\d+\.[\w-]+$/)
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
