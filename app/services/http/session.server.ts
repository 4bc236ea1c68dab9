import crypto from 'node:crypto'
import { createCookie, createSessionStorage } from '@remix-run/node'
import { eq, lt } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { sessions } from '#db/schema.ts'
import { getEnv } from '../platform/env.server.ts'

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 7

const env = getEnv()

/** The cookie carries only the signed session id; the data lives in the `sessions` table. */
export const sessionCookie = createCookie('__session', {
  httpOnly: true,
  sameSite: 'lax',
  secure: env.isProduction,
  path: '/',
  secrets: env.sessionSecrets,
  maxAge: SESSION_MAX_AGE_SECONDS,
})

function expiryFrom(expires?: Date) {
  return expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000)
}

export const sessionStorage = createSessionStorage<Record<string, unknown>>({
  cookie: sessionCookie,
  async createData(data, expires) {
    const sid = crypto.randomBytes(32).toString('base64url')
    await db.insert(sessions).values({ sid, sess: data, expire: expiryFrom(expires) })
    return sid
  },
  async readData(sid) {
    const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid)).limit(1)
    if (!row) return null
    if (row.expire.getTime() <= Date.now()) {
      await db.delete(sessions).where(eq(sessions.sid, sid))
      return null
    }
    return row.sess
  },
  async updateData(sid, data, expires) {
    await db
      .insert(sessions)
      .values({ sid, sess: data, expire: expiryFrom(expires) })
      .onConflictDoUpdate({ target: sessions.sid, set: { sess: data, expire: expiryFrom(expires) } })
  },
  async deleteData(sid) {
    await db.delete(sessions).where(eq(sessions.sid, sid))
  },
})

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get('Cookie'))
}

/** Deletes the sessions past their expiry; returns how many. */
export async function deleteExpiredSessions(now = new Date()) {
  const rows = await db.delete(sessions).where(lt(sessions.expire, now)).returning({ sid: sessions.sid })
  return rows.length
}
