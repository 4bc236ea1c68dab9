/**
 * npm run bench:analytics — the advertiser's pages with a busy business: 50 ads and 1,000,000 click rows (plus their
 * daily figures) in a fresh embedded database. Times the dashboard's queries and the ad page's queries (median and
 * p95 of 50 runs each); budget: under 50 ms each.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventshout-bench-analytics-'))
process.env.DATA_DIR = dataDir
const { getEnv } = await import('#app/services/platform/env.server.ts')
const { closeDatabase, db, initDatabase } = await import('#db/client.server.ts')
const { insertBusiness } = await import('#db/factories.ts')
const { events } = await import('#db/schema.ts')
const { clickStatsForBusiness, listEventsForBusiness, getEventForOwnerPage } =
  await import('#app/models/ads/event.server.ts')
const { dailyStatsForEvent } = await import('#app/models/analytics/daily-stats.server.ts')
const { latestRevisions } = await import('#app/models/ads/event-revision.server.ts')
const { monthBounds, todayInZone, addDaysIso } = await import('#app/utils/time.ts')

const ADS = 50
const ROWS = 1_000_000
const BUDGET_MS = 50

await initDatabase(getEnv())
try {
  const today = todayInZone(getEnv().APP_TIME_ZONE)
  const owner = await insertBusiness(db, { businessName: 'Busy Bistro' })
  const ads = await db
    .insert(events)
    .values(
      Array.from({ length: ADS }, (_, i) => ({
        businessID: owner.businessID,
        businessName: owner.businessName,
        eventTitle: `Ad ${i + 1}`,
        eventDescription: 'A busy ad.',
        showAdOnDates: [today],
        firstShowDate: today,
        lastShowDate: today,
        paymentStatus: 'paid',
        eventStatus: 'approved',
      })),
    )
    .returning({ eventID: events.eventID })
  const first = ads[0]!.eventID
  console.info(`Seeding ${ROWS.toLocaleString('en')} click rows over the last year…`)
  const started = performance.now()
  for (let done = 0; done < ROWS; done += 100_000) {
    await db.execute(sql`
      INSERT INTO "clickCount" ("businessID", "eventID", "userIPaddress", "clickDate", "bounceClick")
      SELECT ${owner.businessID}::integer, ${first}::integer + (n % ${ADS}), md5(n::text), ${addDaysIso(today, -364)}::date + (n % 365),
        n % 3 = 0
      FROM generate_series(${done + 1}::integer, ${done + 100_000}::integer) AS n`)
  }
  await db.execute(sql`ANALYZE`)
  console.info(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  async function timed(name: string, run: () => Promise<unknown>) {
    for (let i = 0; i < 5; i++) await run()
    const times: number[] = []
    for (let i = 0; i < 50; i++) {
      const t = performance.now()
      await run()
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    const median = times[25]!
    const p95 = times[47]!
    const verdict = p95 < BUDGET_MS ? 'within' : 'OVER'
    console.info(
      `${name}: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (${verdict} the ${BUDGET_MS} ms budget)`,
    )
  }

  const { first: from, last: to } = monthBounds(today)
  await timed('dashboard (ads + this month per ad)', () =>
    Promise.all([
      listEventsForBusiness(owner.businessID),
      clickStatsForBusiness(owner.businessID, { from, to }),
    ]),
  )
  await timed("ad page (ad, receipt, review, this month's days)", () =>
    Promise.all([
      getEventForOwnerPage(first),
      latestRevisions([first]),
      dailyStatsForEvent(first, { from, to }),
    ]),
  )
  await timed('ad page, a whole year', () =>
    dailyStatsForEvent(first, { from: addDaysIso(today, -365), to: today }),
  )
} finally {
  await closeDatabase()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
