import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import type { StaffRole } from '#app/constants.ts'
import { setUserRole } from '#app/models/accounts/user.server.ts'
import { requireBusiness, requireRole, requireUser } from '#app/services/http/auth.server.ts'
import { db, openEmbeddedDatabase } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { users } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { callRoute } from '#tests/support/routes.ts'

const guarded =
  (role: StaffRole) =>
  async ({ request }: { request: Request }) => {
    const user = await requireRole(request, role)
    return Response.json(user)
  }

let unique = 0
const newEmail = (label: string) => `${label}-${Date.now()}-${++unique}@example.com`

describe('requireRole', () => {
  test('signed out → redirect to /api/login, coming back afterwards', async () => {
    const res = await callRoute(guarded('admin'), '/admin?date=2026-01-01')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(
      `/api/login?redirectTo=${encodeURIComponent('/admin?date=2026-01-01')}`,
    )
  })

  test('a signed-in advertiser without a staff user → 403', async () => {
    const cookie = await sessionCookieFor({ business: await insertBusiness(db) })
    const res = await callRoute(guarded('admin'), '/admin', { headers: { Cookie: cookie } })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: 'You do not have access to this page.' })
  })

  test('the wrong role → 403', async () => {
    const clinician = await insertUser(db, { roles: ['clinician'] })
    const cookie = await sessionCookieFor({ user: clinician })
    expect((await callRoute(guarded('admin'), '/admin', { headers: { Cookie: cookie } })).status).toBe(403)
    expect(
      (await callRoute(guarded('clinician'), '/patient-diseases', { headers: { Cookie: cookie } })).status,
    ).toBe(200)
  })

  test('no role at all → 403', async () => {
    const cookie = await sessionCookieFor({ user: await insertUser(db) })
    expect(
      (await callRoute(guarded('clinician'), '/patient-diseases', { headers: { Cookie: cookie } })).status,
    ).toBe(403)
  })

  test('the right role → the user', async () => {
    const admin = await insertUser(db, { roles: ['admin'] })
    const res = await callRoute(guarded('admin'), '/admin', {
      headers: { Cookie: await sessionCookieFor({ user: admin }) },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: admin.id, email: admin.email, roles: ['admin'] })
  })

  test('a role revoked after sign-in stops working at once (roles are read from the database)', async () => {
    const admin = await insertUser(db, { email: newEmail('revoked'), roles: ['admin'] })
    const cookie = await sessionCookieFor({ user: admin })
    await setUserRole(admin.email, 'admin', { revoke: true })
    expect((await callRoute(guarded('admin'), '/admin', { headers: { Cookie: cookie } })).status).toBe(403)
  })

  test('a role granted after sign-in works without signing in again', async () => {
    const user = await insertUser(db, { email: newEmail('promoted') })
    const cookie = await sessionCookieFor({ user })
    await setUserRole(user.email, 'clinician')
    expect(
      (await callRoute(guarded('clinician'), '/patient-diseases', { headers: { Cookie: cookie } })).status,
    ).toBe(200)
  })

  test('a session whose user was deleted is treated as signed out', async () => {
    const user = await insertUser(db, { roles: ['admin'] })
    const cookie = await sessionCookieFor({ user })
    await db.delete(users).where(eq(users.id, user.id))
    const res = await callRoute(guarded('admin'), '/admin', { headers: { Cookie: cookie } })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/api\/login\?redirectTo=/)
  })
})

describe('requireUser and requireBusiness', () => {
  test('requireUser: signed out → /api/login?redirectTo=…', async () => {
    const res = await callRoute(({ request }) => requireUser(request), '/patient-diseases?search=flu')
    expect(res.headers.get('Location')).toBe(
      `/api/login?redirectTo=${encodeURIComponent('/patient-diseases?search=flu')}`,
    )
  })

  test('requireBusiness: a staff user without a business → /login', async () => {
    const cookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
    const res = await callRoute(({ request }) => requireBusiness(request), '/dashboard', {
      headers: { Cookie: cookie },
    })
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
  })
})

describe('setUserRole (the core of npm run user:role)', () => {
  test('creates the user when missing, with the role', async () => {
    const email = newEmail('Fresh').replace('fresh', 'Fresh')
    const change = await setUserRole(`  ${email.toUpperCase()} `, 'admin')
    expect(change).toMatchObject({ created: true, changed: true })
    expect(change.user).toMatchObject({ email: email.toLowerCase(), roles: ['admin'] })
  })

  test('granting again changes nothing; a second role is added', async () => {
    const user = await insertUser(db, { email: newEmail('twice') })
    expect(await setUserRole(user.email, 'admin')).toMatchObject({ created: false, changed: true })
    expect(await setUserRole(user.email, 'admin')).toMatchObject({ created: false, changed: false })
    const both = await setUserRole(user.email, 'clinician')
    expect(both.user.roles).toEqual(['admin', 'clinician'])
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect(row!.roles).toEqual(['admin', 'clinician'])
  })

  test('--remove takes a role away', async () => {
    const user = await insertUser(db, { email: newEmail('remove'), roles: ['admin', 'clinician'] })
    const change = await setUserRole(user.email, 'admin', { revoke: true })
    expect(change).toMatchObject({ changed: true, user: { roles: ['clinician'] } })
    expect(await setUserRole(user.email, 'admin', { revoke: true })).toMatchObject({ changed: false })
  })

  test('bad input is refused with a clear error', async () => {
    await expect(setUserRole(newEmail('x'), 'superuser')).rejects.toMatchObject({
      kind: 'invalid',
      code: 'usage',
      message: expect.stringMatching(/Known roles: admin, clinician/),
    })
    await expect(setUserRole('not an email', 'admin')).rejects.toMatchObject({
      kind: 'invalid',
      code: 'usage',
      message: '"not an email" is not an email address',
    })
    await expect(setUserRole(newEmail('ghost'), 'admin', { revoke: true })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringMatching(/^No user with the email /),
    })
  })
})

describe('npm run user:role (the script)', () => {
  const run = promisify(execFile)
  const script = path.resolve('scripts/user-role.ts')
  const tsx = path.resolve('node_modules/.bin/tsx')

  test('grants a role in the embedded database, and says so clearly when a running server holds it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'es-user-role-'))
    // Only the embedded database: the script must not touch a PostgreSQL server the tests may point at.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      APP_ENV: 'development',
      NODE_ENV: 'development',
    }
    delete env.DATABASE_URL
    delete env.VITEST
    try {
      const held = await openEmbeddedDatabase(dataDir)
      try {
        const locked = await run(tsx, [script, 'lock@example.com', 'admin'], { env }).catch((e: unknown) => e)
        expect(locked).toMatchObject({ code: 1 })
        expect((locked as { stderr: string }).stderr).toMatch(
          new RegExp(`in use by another process \\(pid ${process.pid}, since `),
        )
      } finally {
        await held.close()
      }

      const granted = await run(tsx, [script, 'Staff@Example.com', 'clinician'], { env })
      expect(granted.stdout).toMatch(/Created user staff@example\.com with role clinician/)

      const usage = await run(tsx, [script], { env }).catch((e: unknown) => e)
      expect(usage).toMatchObject({ code: 2 })
      expect((usage as { stderr: string }).stderr).toMatch(/Usage: npm run user:role -- <email> <role>/)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
