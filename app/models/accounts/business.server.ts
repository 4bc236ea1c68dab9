import { eq, notInArray } from 'drizzle-orm'
import { AppError } from '#app/utils/app-error.ts'
import { dummyPasswordHash, hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import { db } from '#db/client.server.ts'
import { DEMO_BUSINESSES } from '#db/demo-data.ts'
import { business, users, type Business } from '#db/schema.ts'
import type { Registration } from '#app/models/accounts/business-schema.ts'
import { DUPLICATE_EMAIL_MESSAGE } from '#app/models/accounts/registration-rules.ts'
import type { CardBusiness } from '#app/models/ads/customer-card.ts'
import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import { enqueueAccountCreatedEmail } from '#app/models/mail/notifications.server.ts'
import { normalEmail } from '#app/models/platform/email-address.ts'
import { isUniqueViolation } from '#app/models/platform/unique-violation.ts'

/** A business as the API shows it: everything but the password hash. */
export type PublicBusiness = Omit<Business, 'businessPassword'>

export function toPublicBusiness(row: Business): PublicBusiness {
  const { businessPassword: _hash, ...rest } = row
  return rest
}

/** The session copy of the business; the browser never supplies the business id. */
export interface BusinessSessionCopy {
  businessID: number
  businessName: string
  businessPhone: string
  businessEmail: string
  businessAddress: string
  businessCity: string
  businessState: string
  businessZip: string
  businessContact: string
}

export function toSessionCopy(row: Business): BusinessSessionCopy {
  return {
    businessID: row.businessID,
    businessName: row.businessName,
    businessPhone: row.businessPhone,
    businessEmail: row.businessEmail,
    businessAddress: row.businessAddress,
    businessCity: row.businessCity,
    businessState: row.businessState,
    businessZip: row.businessZip,
    businessContact: row.businessContact,
  }
}

/** What the customer card shows of a business, fresh from the database (links are not in the session copy). */
export async function getCardBusiness(businessID: number): Promise<CardBusiness | null> {
  const [row] = await db
    .select({ businessName: business.businessName, ...businessPublicColumns })
    .from(business)
    .where(eq(business.businessID, businessID))
    .limit(1)
  return row ?? null
}

export async function getBusinessById(businessID: number) {
  const [row] = await db.select().from(business).where(eq(business.businessID, businessID)).limit(1)
  return row ?? null
}

/** Emails are stored lower-cased, so lookups are case-insensitive. */
export async function findBusinessByEmail(email: string) {
  const [row] = await db
    .select()
    .from(business)
    .where(eq(business.businessEmail, normalEmail(email)))
    .limit(1)
  return row ?? null
}

export async function businessEmailTaken(email: string) {
  return (await findBusinessByEmail(email)) !== null
}

/**
 * Creates the business with a hashed password; when `linkUserId` is given the identity-provider user is linked to
 * it in the same transaction. A duplicate email (even one that slipped past the earlier check) is a
 * conflict AppError.
 */
/** Creates the account and, in the same transaction, queues its welcome email (links to `origin`). */
export async function createBusiness(
  input: Registration,
  { linkUserId, origin }: { linkUserId?: string; origin: string },
) {
  const businessPassword = await hashPassword(input.businessPassword)
  const businessEmail = normalEmail(input.businessEmail)
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(business)
        .values({
          businessName: input.businessName,
          businessAddress: input.businessAddress,
          businessCity: input.businessCity,
          businessState: input.businessState,
          businessZip: input.businessZip,
          businessPhone: input.businessPhone,
          businessFax: input.businessFax ?? '',
          businessEmail,
          businessPassword,
          businessContact: input.businessContact,
          businessWebsite: input.businessWebsite ?? '',
          facebookURL: input.facebookURL ?? '',
          instagramURL: input.instagramURL ?? '',
          linkedin: input.linkedin ?? '',
          youtubeURL: input.youtubeURL ?? '',
          xURL: input.xURL ?? '',
          tiktokURL: input.tiktokURL ?? '',
          businessNameEmail: `${input.businessName} ${businessEmail}`,
        })
        .returning()
      const created = row!
      if (linkUserId) {
        await tx
          .update(users)
          .set({ businessID: created.businessID, updatedAt: new Date() })
          .where(eq(users.id, linkUserId))
      }
      await enqueueAccountCreatedEmail(tx, { ...created, origin })
      return created
    })
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(DUPLICATE_EMAIL_MESSAGE, 'conflict', {
        fieldErrors: { businessEmail: [DUPLICATE_EMAIL_MESSAGE] },
      })
    }
    throw error
  }
}

/**
 * The business whose email and password match, or null. An unknown email still costs one hash comparison, so
 * timing does not tell which emails are registered.
 */
export async function verifyBusinessCredentials(email: string, password: string): Promise<Business | null> {
  const row = await findBusinessByEmail(email)
  if (!row || !row.businessPassword) {
    await verifyPassword(password, await dummyPasswordHash())
    return null
  }
  return (await verifyPassword(password, row.businessPassword)) ? row : null
}

/** Whether every business is one of the demo data's (an empty database too): a local demo, not a host's site. */
export async function hasOnlyDemoBusinesses(): Promise<boolean> {
  const others = await db
    .select({ businessID: business.businessID })
    .from(business)
    .where(
      notInArray(
        business.businessEmail,
        DEMO_BUSINESSES.map((demo) => demo.businessEmail),
      ),
    )
    .limit(1)
  return others.length === 0
}
