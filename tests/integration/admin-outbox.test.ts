import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { enqueueMessage, OUTBOX_PAGE_SIZE } from '#app/models/mail/outbox.server.ts'
import { loader as messageLoader } from '#app/routes/admin_.outbox.$id.tsx'
import { loader as outboxLoader } from '#app/routes/admin_.outbox._index.tsx'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { outbox } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'

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
