import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db } from '#db/client.server.ts'
import { sessions } from '#db/schema.ts'
import { deleteExpiredSessions, sessionCookie, sessionStorage } from '#app/services/http/session.server.ts'
import { getToast, createToastHeaders } from '#app/services/http/toast.server.ts'

function cookieHeader(setCookie: string) {
  return setCookie.split(';')[0] ?? ''
}

test('a session lives in the sessions table; the cookie holds only a signed id', async () => {
  const session = await sessionStorage.getSession()
  session.set('business', { businessID: 7, businessName: 'Blue Door Cafe' })
  const setCookie = await sessionStorage.commitSession(session)
  expect(setCookie).toMatch(/HttpOnly/)
  expect(setCookie).toMatch(/SameSite=Lax/)
  expect(setCookie).not.toContain('Blue Door')

  const sid = (await sessionCookie.parse(cookieHeader(setCookie))) as string
  const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid))
  expect(row?.sess).toEqual({ business: { businessID: 7, businessName: 'Blue Door Cafe' } })
  expect(row!.expire.getTime()).toBeGreaterThan(Date.now())

  const again = await sessionStorage.getSession(cookieHeader(setCookie))
  expect(again.get('business')).toEqual({ businessID: 7, businessName: 'Blue Door Cafe' })

  await sessionStorage.destroySession(again)
  expect(await db.select().from(sessions).where(eq(sessions.sid, sid))).toEqual([])
  const afterLogout = await sessionStorage.getSession(cookieHeader(setCookie))
  expect(afterLogout.get('business')).toBeUndefined()
})

test('a tampered cookie is ignored', async () => {
  const session = await sessionStorage.getSession()
  session.set('business', { businessID: 1 })
  const cookie = cookieHeader(await sessionStorage.commitSession(session))
  const tampered = cookie.slice(0, -3) + (cookie.endsWith('abc') ? 'xyz' : 'abc')
  expect((await sessionStorage.getSession(tampered)).get('business')).toBeUndefined()
})

test('expired sessions are not read and are cleaned up', async () => {
  await db.insert(sessions).values({ sid: 'old', sess: { a: 1 }, expire: new Date(Date.now() - 1000) })
  await db.insert(sessions).values({ sid: 'fresh', sess: { a: 2 }, expire: new Date(Date.now() + 60_000) })
  await deleteExpiredSessions()
  const left = await db.select({ sid: sessions.sid }).from(sessions)
  expect(left.map((r) => r.sid)).toContain('fresh')
  expect(left.map((r) => r.sid)).not.toContain('old')
})

test('a flash toast is read once and then cleared', async () => {
  const headers = await createToastHeaders({ title: 'Saved', description: 'All good', variant: 'default' })
  const cookie = cookieHeader(headers.get('Set-Cookie')!)
  const first = await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))
  expect(first.toast).toMatchObject({ title: 'Saved', description: 'All good', variant: 'default' })
  expect(first.headers?.get('Set-Cookie')).toMatch(/es_toast=;/)
  const none = await getToast(new Request('http://localhost/'))
  expect(none.toast).toBeNull()
})
