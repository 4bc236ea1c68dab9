/**
 * Deploying migration 0022 onto a database with ads: every ad gets its place from the data it already has (its
 * venue's ZIP centre, else its business's), so "near me" finds the ads written before the deploy.
 */
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, expect, test } from 'vitest'
import { MIGRATIONS_FOLDER, openPglite, rowsOf } from '#db/client.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const PLACE_MIGRATION = '0022_event_place'
const before = path.join(TMP_DIR, `migrations-before-place-${process.pid}`)

afterAll(() => fs.rmSync(before, { recursive: true, force: true }))

/** The migrations folder as it was before 0022: its files and its journal up to 0021. */
function migrationsBeforePlace() {
  fs.rmSync(before, { recursive: true, force: true })
  fs.cpSync(MIGRATIONS_FOLDER, before, { recursive: true })
  const journalFile = path.join(before, 'meta', '_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
  const at = journal.entries.findIndex((e) => e.tag === PLACE_MIGRATION)
  expect(at).toBeGreaterThan(0)
  journal.entries = journal.entries.slice(0, at)
  fs.writeFileSync(journalFile, JSON.stringify(journal))
  return before
}

test('ads written before the deploy are placed at their venue, else at their business; an unknown ZIP at neither', async () => {
  const { client, db } = await openPglite()
  try {
    await migrate(db as never, { migrationsFolder: migrationsBeforePlace() })
    const businesses = rowsOf<{ businessID: number; businessZip: string }>(
      await db.execute(sql`
        INSERT INTO "business" ("businessName", "businessEmail", "businessPassword", "businessZip")
        VALUES ('Springfield Diner', 'diner@example.com', 'x', '62701'),
               ('Nowhere Shop', 'shop@example.com', 'x', '00000')
        RETURNING "businessID", "businessZip"`),
    )
    const springfield = businesses.find((b) => b.businessZip === '62701')!.businessID
    const nowhere = businesses.find((b) => b.businessZip === '00000')!.businessID
    await db.execute(sql`
      INSERT INTO "events" ("businessID", "eventTitle", "eventDescription", "venueZip")
      VALUES (${springfield}, 'At the diner', 'd', ''), (${springfield}, 'In Chicago', 'd', '60601'),
             (${nowhere}, 'Unknown place', 'd', ''), (${nowhere}, 'Known venue', 'd', '90210')`)

    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER })

    const places = rowsOf<{
      eventTitle: string
      placeLatitude: number | null
      placeLongitude: number | null
    }>(
      await db.execute(
        sql`SELECT "eventTitle", "placeLatitude", "placeLongitude" FROM "events" ORDER BY "eventTitle"`,
      ),
    )
    expect(places).toEqual([
      { eventTitle: 'At the diner', placeLatitude: 39.800544, placeLongitude: -89.648894 },
      { eventTitle: 'In Chicago', placeLatitude: 41.885155, placeLongitude: -87.621512 },
      { eventTitle: 'Known venue', placeLatitude: 34.100517, placeLongitude: -118.41463 },
      { eventTitle: 'Unknown place', placeLatitude: null, placeLongitude: null },
    ])
  } finally {
    await client.close()
  }
}, 60_000)
