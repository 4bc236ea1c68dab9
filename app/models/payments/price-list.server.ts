/**
 * The price list in the database: append-only versions, the newest one current. It is read on every use (one read
 * by the primary key), so every server charges the same prices the moment an administrator changes them.
 */
import { desc, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { priceLists, users, type PriceListRow } from '#db/schema.ts'
import { DEFAULT_PRICE_LIST, type PriceList } from './price-list.ts'

export interface PriceListVersion extends PriceList {
  id: number
  createdAt: Date
  changedByEmail: string
  note: string
}

function versionOf(row: PriceListRow): PriceListVersion {
  return {
    id: row.id,
    tiers: row.tiers,
    sponsoredCentsPerDay: row.sponsoredCentsPerDay,
    sponsoredSlots: row.sponsoredSlots,
    freeListings: row.freeListings,
    categoryTiers: row.categoryTiers,
    createdAt: row.createdAt,
    changedByEmail: row.changedByEmail,
    note: row.note,
  }
}

/** The prices in force: the newest version (the migration writes the first one; without any, the defaults). */
export async function currentPriceList(executor: Transaction | typeof db = db): Promise<PriceList> {
  const [row] = await executor.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
  return row ? versionOf(row) : DEFAULT_PRICE_LIST
}

/**
 * Saves `list` as the new current version, changed by the administrator `userId`. The table is locked for the
 * append, so two administrators saving at once are ordered and each one's history shows what it replaced.
 */
export async function appendPriceList(list: PriceList & { note: string }, userId: string) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${priceLists} in share row exclusive mode`)
    const before = await currentPriceList(tx)
    const [row] = await tx
      .insert(priceLists)
      .values({
        tiers: list.tiers,
        sponsoredCentsPerDay: list.sponsoredCentsPerDay,
        sponsoredSlots: list.sponsoredSlots,
        freeListings: list.freeListings,
        categoryTiers: list.categoryTiers,
        note: list.note,
        changedByUserId: userId,
        changedByEmail: sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${userId}), '')`,
      })
      .returning()
    return { before, after: versionOf(row!) }
  })
}

/** The versions, newest first (at most `limit`). */
export async function listPriceLists(limit = 50): Promise<PriceListVersion[]> {
  const rows = await db
    .select()
    .from(priceLists)
    .orderBy(desc(priceLists.id))
    .limit(limit + 1)
  return rows.map(versionOf)
}
