import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  checkMigration,
  contractMarker,
  describeRefusals,
  findUnsafeMigrations,
  LAST_UNCHECKED_MIGRATION,
  refuseUnsafeMigrations,
  UnsafeMigrationError,
} from '#db/migration-rules.js'

const BREAK = '--> statement-breakpoint'
const EARLIER = ['0031_visible_changes', '0032_qr_scans']

const rulesOf = async (sql: string, earlierTags = EARLIER) =>
  (await checkMigration(sql, { file: '0033_next.sql', earlierTags })).map((r) => r.rule)

describe('a migration the previous release cannot live with is refused', () => {
  test.each([
    ['rename-column', 'ALTER TABLE "events" RENAME COLUMN "eventTitle" TO "title";'],
    ['rename-column', 'alter table events rename "eventTitle" to title'],
    ['rename-table', 'ALTER TABLE "events" RENAME TO "ads";'],
    ['drop-column', 'ALTER TABLE "events" DROP COLUMN "eventTitle";'],
    ['drop-column', 'ALTER TABLE IF EXISTS ONLY "events" DROP COLUMN IF EXISTS "eventTitle" CASCADE;'],
    ['drop-table', 'DROP TABLE "clickCount";'],
    ['drop-table', 'DROP TABLE IF EXISTS public."clickCount" CASCADE;'],
    ['set-not-null', 'ALTER TABLE "events" ALTER COLUMN "startTime" SET NOT NULL;'],
    ['add-column-not-null', 'ALTER TABLE "events" ADD COLUMN "rank" integer NOT NULL;'],
    ['add-column-not-null', 'ALTER TABLE "events" ADD "rank" integer PRIMARY KEY;'],
    ['alter-type', 'ALTER TABLE "events" ALTER COLUMN "eventTitle" SET DATA TYPE text;'],
    ['alter-type', 'ALTER TABLE "events" ALTER "totalCost" TYPE bigint USING "totalCost"::bigint;'],
    ['index', 'CREATE INDEX "events_title_idx" ON "events" USING btree ("eventTitle");'],
    ['index', 'CREATE UNIQUE INDEX IF NOT EXISTS "events_title_idx" ON "events" ("eventTitle");'],
    ['index', 'CREATE INDEX ON "events" ("eventTitle");'],
    ['index', 'ALTER TABLE "events" ADD CONSTRAINT "events_title_key" UNIQUE ("eventTitle");'],
  ])('%s: %s', async (rule, sql) => {
    expect(await rulesOf(sql)).toContain(rule)
  })

  test('an index built CONCURRENTLY in the migration is refused too: it cannot run in its transaction', async () => {
    const [refusal] = await checkMigration('CREATE INDEX CONCURRENTLY "x" ON "events" ("eventTitle");')
    expect(refusal?.rule).toBe('index')
    expect(refusal?.remedy).toContain('db/migrations/concurrent/')
  })

  test('every statement is checked, each refusal naming its statement and line', async () => {
    const sql = [
      'ALTER TABLE "events" ADD COLUMN "title" varchar(255);',
      BREAK,
      '-- the old name goes',
      'ALTER TABLE "events" DROP COLUMN "eventTitle", ALTER COLUMN "startTime" SET NOT NULL;',
      BREAK,
      'CREATE INDEX "t" ON "events" ("title");',
    ].join('\n')
    const refusals = await checkMigration(sql, { file: '0033_next.sql' })
    expect(refusals.map((r) => [r.rule, r.statement, r.line])).toEqual([
      ['drop-column', 2, 4],
      ['set-not-null', 2, 4],
      ['index', 3, 6],
    ])
    expect(refusals[0]!.sql).toBe(
      'ALTER TABLE "events" DROP COLUMN "eventTitle", ALTER COLUMN "startTime" SET NOT NULL',
    )
  })

  test('the message names the file, the statement and what to do instead', async () => {
    const refusals = await checkMigration('ALTER TABLE "events" RENAME COLUMN "eventTitle" TO "title";', {
      file: '0033_rename.sql',
    })
    const message = describeRefusals(refusals)
    expect(message).toContain('0033_rename.sql, statement 1 (line 1): ALTER TABLE "events" RENAME COLUMN')
    expect(message).toContain('Renames column "eventTitle" of "events" to "title"')
    expect(message).toContain('What to do: Rename in two releases')
    expect(message).toContain('-- contract:')
    expect(new UnsafeMigrationError(refusals).message).toContain('Nothing was migrated')
  })
})

describe('what the previous release can live with passes', () => {
  test.each([
    'ALTER TABLE "events" ADD COLUMN "titleLength" integer;',
    'ALTER TABLE "events" ADD COLUMN "sponsored" boolean DEFAULT false NOT NULL;',
    'ALTER TABLE "events" ADD COLUMN "rank" integer GENERATED ALWAYS AS IDENTITY NOT NULL;',
    'ALTER TABLE "events" ALTER COLUMN "startTime" DROP NOT NULL;',
    'ALTER TABLE "events" ALTER COLUMN "eventTitle" SET DEFAULT \'\';',
    'ALTER TABLE "events" ADD CONSTRAINT "title_present" CHECK ("eventTitle" <> \'\') NOT VALID;',
    'ALTER TABLE "events" VALIDATE CONSTRAINT "title_present";',
    'ALTER TABLE "events" ADD CONSTRAINT "events_title_key" UNIQUE USING INDEX "events_title_idx";',
    'ALTER TABLE "events" RENAME CONSTRAINT "a" TO "b";',
    'DROP INDEX IF EXISTS "events_old_idx";',
    'DROP FUNCTION IF EXISTS old_sync();',
    'CREATE VIEW "ads" AS SELECT * FROM "events";',
    'INSERT INTO "categoryList" ("categoryName") VALUES (\'Markets\') ON CONFLICT DO NOTHING;',
    // Statements inside a string or a function's body are not statements of the migration.
    'SELECT \'ALTER TABLE events DROP COLUMN "eventTitle"\';',
    `CREATE OR REPLACE FUNCTION f() RETURNS trigger AS $$
BEGIN
  EXECUTE 'DROP TABLE events';
  RETURN NEW;
END $$ LANGUAGE plpgsql;`,
    '-- ALTER TABLE "events" DROP COLUMN "eventTitle";\nSELECT 1;',
    '/* DROP TABLE events; */ SELECT 1;',
  ])('%s', async (sql) => {
    expect(await rulesOf(sql)).toEqual([])
  })

  test('a table the migration creates may get its indexes, NOT NULL columns and changes in it', async () => {
    const sql = [
      'CREATE TABLE "promo" ("id" integer PRIMARY KEY NOT NULL, "code" varchar(32) NOT NULL);',
      BREAK,
      'ALTER TABLE "promo" ADD COLUMN "kind" varchar(10) NOT NULL;',
      BREAK,
      'CREATE UNIQUE INDEX "promo_code_idx" ON "promo" USING btree ("code");',
      BREAK,
      'ALTER TABLE "promo" ALTER COLUMN "code" SET DATA TYPE text;',
    ].join('\n')
    expect(await rulesOf(sql)).toEqual([])
    // …but not before it exists.
    expect(
      await rulesOf(`CREATE INDEX "p" ON "promo" ("code");\n${BREAK}\nCREATE TABLE "promo" ("code" text);`),
    ).toEqual(['index'])
  })
})

describe('the contract marker', () => {
  const drop = 'ALTER TABLE "events" DROP COLUMN "eventTitle";'

  test('naming an earlier migration, it accepts the contract step', async () => {
    expect(await rulesOf(`-- contract: 0031_visible_changes\n${drop}`)).toEqual([])
    expect(
      await rulesOf(`\n--  Contract:   0032_qr_scans  (the title moved to "title")\n-- more words\n${drop}`),
    ).toEqual([])
  })

  test.each([
    ['a later or unknown migration', '-- contract: 0040_later'],
    ['this migration itself', '-- contract: 0033_next'],
    ['nothing', '-- contract:'],
    ['a name with SQL in it', "-- contract: 0031_visible_changes';DROP"],
  ])('naming %s, it is refused and so is the statement', async (_what, marker) => {
    expect(await rulesOf(`${marker}\n${drop}`, [...EARLIER])).toEqual(['contract-marker', 'drop-column'])
  })

  test('it counts only as a leading comment, not after the first statement or in a string', async () => {
    expect(contractMarker(`SELECT 1;\n-- contract: 0031_visible_changes\n${drop}`)).toBeUndefined()
    expect(contractMarker(`${BREAK}\n-- contract: 0031_visible_changes`)).toBeUndefined()
    expect(await rulesOf(`SELECT '-- contract: 0031_visible_changes';\n${drop}`)).toEqual(['drop-column'])
  })

  test('it does not allow an index built in the migration: an index is never a contract step', async () => {
    expect(await rulesOf('-- contract: 0031_visible_changes\nCREATE INDEX "x" ON "events" ("a");')).toEqual([
      'index',
    ])
  })

  test('when the previous release is known, it must name one of its migrations', async () => {
    const check = (shipped: string[]) =>
      checkMigration(`-- contract: 0032_qr_scans\n${drop}`, {
        earlierTags: EARLIER,
        shippedTags: new Set(shipped),
      })
    expect(await check(EARLIER)).toEqual([])
    const refused = await check(['0031_visible_changes'])
    expect(refused.map((r) => r.rule)).toEqual(['contract-marker', 'drop-column'])
    expect(refused[0]!.problem).toContain('not in the previous release')
  })
})

describe('a migrations folder', () => {
  const folderWith = (files: Record<string, string>) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-rules-'))
    fs.mkdirSync(path.join(folder, 'meta'))
    const tags = Object.keys(files)
    for (const tag of tags) fs.writeFileSync(path.join(folder, `${tag}.sql`), files[tag]!)
    const entries = tags.map((tag, idx) => ({
      idx,
      version: '7',
      when: 1_800_000_000_000 + idx,
      tag,
      breakpoints: true,
    }))
    fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ version: '7', entries }))
    return folder
  }

  test("db/migrations passes: those up to the baseline are not read again, those after it are the rules'", async () => {
    expect(await findUnsafeMigrations('db/migrations')).toEqual([])
  })

  test('the migrations up to the baseline are accepted as they shipped, those after it are checked', async () => {
    const folder = folderWith({
      '0015_month_grid_counts': 'ALTER TABLE "event_show_dates" ALTER COLUMN "last_date" SET NOT NULL;',
      [LAST_UNCHECKED_MIGRATION]: 'CREATE INDEX "old_idx" ON "events" ("eventTitle");',
      '0033_rename': 'ALTER TABLE "events" RENAME COLUMN "eventTitle" TO "title";',
      '0034_contract': `-- contract: ${LAST_UNCHECKED_MIGRATION}\nALTER TABLE "events" DROP COLUMN "x";`,
      '0035_contract_of_a_later_one': '-- contract: 0036_expand\nALTER TABLE "events" DROP COLUMN "y";',
      '0036_expand': 'ALTER TABLE "events" ADD COLUMN "z" text;',
    })
    try {
      const refusals = await findUnsafeMigrations(folder)
      expect(refusals.map((r) => [r.file, r.rule])).toEqual([
        ['0033_rename.sql', 'rename-column'],
        ['0035_contract_of_a_later_one.sql', 'contract-marker'],
        ['0035_contract_of_a_later_one.sql', 'drop-column'],
      ])
      const error = await refuseUnsafeMigrations(folder).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsafeMigrationError)
      expect((error as Error).message).toContain('Refused: 2 migrations')
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })

  test('a journal that stops before the baseline, as an older release has it, is not read again', async () => {
    const folder = folderWith({
      '0011_outbox_retention': 'CREATE INDEX "outbox_sent_idx" ON "outbox" ("sentAt");',
      '0015_month_grid_counts': 'ALTER TABLE "event_show_dates" ALTER COLUMN "last_date" SET NOT NULL;',
    })
    try {
      expect(await findUnsafeMigrations(folder)).toEqual([])
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })

  test('SQL the parser cannot read is refused with its file, not let through', async () => {
    const refusals = await checkMigration('ALTER TABLE "events" RENAME COLUMN;\n', {
      file: '0033_broken.sql',
    })
    expect(refusals.map((r) => [r.file, r.rule, r.statement])).toEqual([['0033_broken.sql', 'unreadable', 1]])
  })
})
