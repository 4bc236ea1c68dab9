/** Builders shared by the demo seed and the tests, so both describe the same kind of data. */
import crypto from 'node:crypto'
import type { StaffRole } from '#app/constants.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database } from './client.server.ts'
import { business, users, type Business, type User } from './schema.ts'

type BusinessInput = Partial<Omit<typeof business.$inferInsert, 'businessID'>> & { password?: string }

let sequence = 0
const unique = () => `${Date.now().toString(36)}${(++sequence).toString(36)}${crypto.randomBytes(2).toString('hex')}`

export function buildBusiness(overrides: BusinessInput = {}) {
  const id = unique()
  const { password: _password, ...rest } = overrides
  const businessName = rest.businessName ?? `Test Business ${id}`
  const businessEmail = (rest.businessEmail ?? `owner-${id}@example.com`).toLowerCase()
  return {
    businessName,
    businessAddress: '12 Main Street',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62701',
    businessPhone: '2175550123',
    businessFax: '',
    businessContact: 'Pat Owner',
    businessWebsite: '',
    ...rest,
    businessEmail,
    businessNameEmail: `${businessName} ${businessEmail}`,
  }
}

/**
 * One hash per password for the whole process: a hash costs about 50 ms of CPU on purpose, and businesses made for
 * tests and demos need no salt of their own (signing in still checks the password against it).
 */
const passwordHashes = new Map<string, Promise<string>>()
function passwordHashOf(password: string) {
  let hash = passwordHashes.get(password)
  if (!hash) {
    hash = hashPassword(password)
    passwordHashes.set(password, hash)
  }
  return hash
}

export async function insertBusiness(db: Database, overrides: BusinessInput = {}): Promise<Business> {
  const values = buildBusiness(overrides)
  const businessPassword = await passwordHashOf(overrides.password ?? 'password123')
  const [row] = await db
    .insert(business)
    .values({ ...values, businessPassword })
    .returning()
  return row!
}

export async function insertUser(
  db: Database,
  overrides: Partial<typeof users.$inferInsert> & { roles?: StaffRole[] } = {},
): Promise<User> {
  const id = unique()
  const [row] = await db
    .insert(users)
    .values({ email: `user-${id}@example.com`, firstName: 'Sam', lastName: 'Staff', fullName: 'Sam Staff', ...overrides })
    .returning()
  return row!
}
