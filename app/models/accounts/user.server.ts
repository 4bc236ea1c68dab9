import { eq, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { FULL_NAME_MAX, STAFF_ROLES, type StaffRole } from '#app/constants.ts'
import { normalEmail } from '#app/models/platform/email-address.ts'
import { AppError } from '#app/utils/app-error.ts'
import { db } from '#db/client.server.ts'
import { users, type User } from '#db/schema.ts'

const NAME_MAX = 255

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value)
}

export function displayName(user: Pick<User, 'fullName' | 'firstName' | 'lastName' | 'email'>) {
  return user.fullName || `${user.firstName} ${user.lastName}`.trim() || user.email
}

/** A `users` row as the session keeps it. */
export interface SessionUser {
  id: string
  email: string
  name: string
  roles: StaffRole[]
}

export function toSessionUser(user: User): SessionUser {
  return { id: user.id, email: user.email, name: displayName(user), roles: user.roles.filter(isStaffRole) }
}

export async function getUserById(id: string) {
  // A malformed id would make Postgres reject the uuid cast.
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row ?? null
}

export async function findUserByEmail(email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalEmail(email)))
    .limit(1)
  return row ?? null
}

/** What an identity provider (or the development sign-in) tells us about a person. */
export interface IdentityProfile {
  email: string
  firstName?: string
  lastName?: string
  fullName?: string
  profileImageUrl?: string
}

/**
 * Creates the user on first sign-in, otherwise refreshes the names and picture the provider sent (keeping what
 * is stored when it sent none) and records the sign-in time.
 */
export async function upsertIdentityUser(profile: IdentityProfile): Promise<User> {
  const email = normalEmail(profile.email)
  const firstName = (profile.firstName ?? '').trim().slice(0, NAME_MAX)
  const lastName = (profile.lastName ?? '').trim().slice(0, NAME_MAX)
  const fullName = (profile.fullName?.trim() || `${firstName} ${lastName}`.trim()).slice(0, FULL_NAME_MAX)
  const profileImageUrl = (profile.profileImageUrl ?? '').trim()
  const now = new Date()
  const keepUnlessGiven = (column: AnyPgColumn, value: string) => (value ? sql`${value}` : sql`${column}`)
  const [row] = await db
    .insert(users)
    .values({ email, firstName, lastName, fullName, profileImageUrl, lastLogin: now })
    .onConflictDoUpdate({
      target: users.email,
      set: {
        firstName: keepUnlessGiven(users.firstName, firstName),
        lastName: keepUnlessGiven(users.lastName, lastName),
        fullName: keepUnlessGiven(users.fullName, fullName),
        profileImageUrl: keepUnlessGiven(users.profileImageUrl, profileImageUrl),
        lastLogin: now,
        updatedAt: now,
      },
    })
    .returning()
  return row!
}

export async function linkUserToBusiness(userId: string, businessID: number) {
  await db.update(users).set({ businessID, updatedAt: new Date() }).where(eq(users.id, userId))
}

export interface RoleChange {
  user: User
  /** The user did not exist and was created. */
  created: boolean
  /** The roles changed (false when the user already had the role, or did not have the one removed). */
  changed: boolean
}

/**
 * Grants (or with `revoke`, removes) a staff role, creating the user when missing so a role can be granted before
 * the person's first sign-in. Removing a role from an unknown email is a not_found AppError; a
 * malformed email or unknown role is invalid, with the code `usage`. The core of
 * `npm run user:role`.
 */
export async function setUserRole(
  rawEmail: string,
  role: string,
  { revoke = false }: { revoke?: boolean } = {},
): Promise<RoleChange> {
  const email = normalEmail(rawEmail)
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AppError(`"${rawEmail}" is not an email address`, 'invalid', { code: 'usage' })
  if (!isStaffRole(role))
    throw new AppError(`Unknown role "${role}". Known roles: ${STAFF_ROLES.join(', ')}`, 'invalid', {
      code: 'usage',
    })
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).for('update').limit(1)
    if (!existing) {
      if (revoke) throw new AppError(`No user with the email ${email}`, 'not_found')
      const [created] = await tx
        .insert(users)
        .values({ email, roles: [role] })
        .returning()
      return { user: created!, created: true, changed: true }
    }
    const has = existing.roles.includes(role)
    if (has !== revoke) return { user: existing, created: false, changed: false }
    const roles = revoke ? existing.roles.filter((r) => r !== role) : [...existing.roles, role]
    const [updated] = await tx
      .update(users)
      .set({ roles, updatedAt: new Date() })
      .where(eq(users.id, existing.id))
      .returning()
    return { user: updated!, created: false, changed: true }
  })
}

/** The roles stored now (the session keeps a copy from sign-in time, which a revoked role must not outlive). */
export async function currentRoles(userId: string): Promise<StaffRole[] | null> {
  const user = await getUserById(userId)
  return user ? user.roles.filter(isStaffRole) : null
}
