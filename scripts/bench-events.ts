/**
 * The events the benchmarks load: `seed` fills a database with the given number of events (businesses, live and
 * ended ads, drafts) in bulk, and `cacheMissPaths` gives calendar URLs nobody asked for just before, so neither
 * the shared page cache nor the listing cache answers them. Shared by bench-calendar and bench-backup.
 */
import { sql } from 'drizzle-orm'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { addDaysIso } from '#app/utils/time.ts'
import type { Database } from '#db/client.server.ts'
import { DEMO_EVENT_IDEAS } from '#db/demo-data.ts'
import { vacuumAsMaintenanceRun } from './bench-server.ts'

/** How many events, and which share of them is live (every `liveEvery`th). */
export interface Scale {
  events: number
  liveEvery: number
}
const EVENTS_PER_BUSINESS = 50
const SEED_BATCH = 5_000

function literal(value: string) {
  return `'${value.replace(/'/g, "''")}'`
}

function textArray(values: readonly string[]) {
  return `ARRAY[${values.map(literal).join(', ')}]::text[]`
}

/**
 * Bulk rows with generate_series. Live events start between 2 days ago and 60 days ahead and run 3–14 dates (every
 * day, every other day or every third day); a third also have a single event date. The rest are over (last date
 * before today), awaiting review, rejected, or saved in the last day and not paid yet.
 */
export async function seed(db: Database, today: string, { events: totalEvents, liveEvery }: Scale) {
  const businesses = Math.max(100, totalEvents / EVENTS_PER_BUSINESS)
  const started = performance.now()
  const ideas = DEMO_EVENT_IDEAS
  await db.execute(
    sql.raw(`INSERT INTO "categoryList" ("categoryName")
    SELECT unnest(${textArray(DEFAULT_CATEGORIES)}) ON CONFLICT DO NOTHING`),
  )
  await db.execute(
    sql.raw(`INSERT INTO "business" ("businessName", "businessEmail", "businessAddress", "businessCity",
      "businessState", "businessZip", "businessPhone", "businessContact", "businessNameEmail")
    SELECT 'Bench Business ' || g, 'bench-' || g || '@example.com', g || ' Main Street', 'Springfield', 'IL',
      (60000 + (g * 7919) % 40000)::text, '217555' || lpad((g % 10000)::text, 4, '0'), 'Owner ' || g, ''
    FROM generate_series(1, ${businesses}) AS g`),
  )
  // In batches: the trigger adds each live event to the show-date counts, and within one statement every update of
  // a count row leaves a version that cannot be pruned until it commits, so one statement for all would be quadratic.
  for (let first = 1; first <= totalEvents; first += SEED_BATCH) {
    const last = Math.min(totalEvents, first + SEED_BATCH - 1)
    await db.execute(
      sql.raw(`WITH ideas AS (
      SELECT i AS idx, t AS title, d AS description
      FROM unnest(${textArray(ideas.map((i) => i.title))}, ${textArray(ideas.map((i) => i.description))})
        WITH ORDINALITY AS u(t, d, i)
    ), cats AS (SELECT ${textArray(DEFAULT_CATEGORIES)} AS names),
    businesses AS (SELECT "businessID", "businessName", row_number() OVER (ORDER BY "businessID") - 1 AS n FROM business),
    plan AS (
      SELECT g,
        CASE WHEN g % ${liveEvery} = 0 THEN 'live'
             WHEN g % ${liveEvery} IN (1, 2, 3, 4) THEN 'ended'
             WHEN g % ${liveEvery} IN (5, 6) THEN 'review'
             WHEN g % ${liveEvery} = 7 THEN 'rejected'
             ELSE 'unpaid' END AS state,
        3 + (g / ${liveEvery}) % 12 AS days,
        1 + (g / 7) % 3 AS step
      FROM generate_series(${first}, ${last}) AS g
    ), dated AS (
      SELECT p.*,
        CASE WHEN p.state = 'live' THEN DATE ${literal(today)} + ((p.g * 13) % 63) - 2
             WHEN p.state = 'ended' THEN DATE ${literal(today)} - 400 + (p.g * 7) % 360
             ELSE DATE ${literal(today)} + (p.g * 11) % 61 END AS start
      FROM plan p
    ), rows AS (
      SELECT d.*,
        ARRAY(SELECT d.start + s * d.step FROM generate_series(0, d.days - 1) AS s) AS shows,
        CASE WHEN d.g % 3 = 0 THEN d.start + d.days * d.step ELSE DATE '1989-01-01' END AS event_date
      FROM dated d
    )
    INSERT INTO events ("businessID", "businessName", "eventTitle", "eventDescription", category, "showAdOnDates",
      "eventDate", "firstShowDate", "lastShowDate", "daysOrdered", "totalCost", "paymentStatus", "eventStatus",
      "approvedDateByBusiness", "approvedDateByAdmin", "createdDate", "sponsored")
    SELECT b."businessID", b."businessName", i.title || ' #' || r.g, i.description || ' Ref ' || r.g || '.',
      CASE WHEN r.g % 3 = 0 THEN ARRAY[c.names[1 + r.g % 11]]
           ELSE ARRAY[c.names[1 + r.g % 11], c.names[1 + (r.g / 11) % 11]] END,
      r.shows, r.event_date,
      CASE WHEN r.event_date <> DATE '1989-01-01' THEN LEAST(r.shows[1], r.event_date) ELSE r.shows[1] END,
      CASE WHEN r.event_date <> DATE '1989-01-01' THEN GREATEST(r.shows[r.days], r.event_date) ELSE r.shows[r.days] END,
      r.days, 29,
      CASE WHEN r.state = 'unpaid' THEN 'pending' ELSE 'paid' END,
      CASE WHEN r.state IN ('live', 'ended') THEN 'approved' WHEN r.state = 'rejected' THEN 'rejected' ELSE 'pending' END,
      DATE ${literal(today)} - 3,
      CASE WHEN r.state IN ('live', 'ended') THEN DATE ${literal(today)} - 2 ELSE DATE '1989-01-01' END,
      -- Drafts older than a day are removed by the cleanup job, so unpaid ones are recent.
      CASE WHEN r.state = 'unpaid' THEN now() - ((r.g * 37) % 1200) * interval '1 minute'
           ELSE now() - ((r.g % 90) * interval '1 day') - ((r.g * 37) % 1440) * interval '1 minute' END,
      -- One live ad in 50 is sponsored: the calendar's Sponsored slots have several to choose from for most filters.
      r.state = 'live' AND r.g % ${liveEvery * 50} = 0
    FROM rows r
    -- Counted in steps of liveEvery, so the live ads take every idea in turn (a word of one idea is in 1 in 15).
    JOIN ideas i ON i.idx = 1 + (r.g / ${liveEvery}) % ${ideas.length}
    JOIN businesses b ON b.n = r.g % ${businesses}
    CROSS JOIN cats c`),
    )
  }
  await vacuumAsMaintenanceRun(db)
  const [counts] = rowsOf(
    await db.execute(
      sql`SELECT count(*)::int AS total,
        (count(*) FILTER (WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid'
          AND "lastShowDate" >= ${today}::date))::int AS live FROM events`,
    ),
  )
  return {
    total: Number(counts?.total),
    live: Number(counts?.live),
    seconds: (performance.now() - started) / 1000,
  }
}

export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>
  return (result as { rows?: Array<Record<string, unknown>> }).rows ?? []
}

/** A small deterministic random generator (mulberry32), so every run asks the same sequence of URLs. */
export function randomSource(seed: number) {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(list: readonly T[]) => list[int(0, list.length - 1)]!
  return { next, int, pick }
}

/** Words of the seeded descriptions, what people type into the keyword box. */
export const KEYWORDS = [
  ...new Set(DEMO_EVENT_IDEAS.flatMap((i) => i.description.toLowerCase().match(/[a-z]{4,}/g) ?? [])),
]

/**
 * Calendar URLs nobody asked for just before: realistic filter mixes (none with a later page, a category from a
 * date, a date range, a keyword, part of a ZIP code, all of them together), each with a parameter the page ignores
 * so that no URL repeats. Filters repeat rarely, so the listing cache rarely answers either.
 */
export function cacheMissPaths(today: string) {
  const random = randomSource(17)
  let n = 0
  const date = () => addDaysIso(today, random.int(-2, 60))
  const word = () =>
    random.next() < 0.8
      ? random.pick(KEYWORDS)
      : Array.from({ length: 5 }, () => String.fromCharCode(97 + random.int(0, 25))).join('')
  const zip = () => String(random.int(60000, 99999)).slice(0, random.int(3, 5))
  const kinds: Array<() => Record<string, string>> = [
    () => ({ page: String(random.int(2, 12)) }),
    () => ({ category: random.pick(DEFAULT_CATEGORIES), from: date() }),
    () => {
      const from = date()
      return { from, to: addDaysIso(from, random.int(0, 30)), page: String(random.int(1, 2)) }
    },
    () => ({ keyword: word(), ...(random.next() < 0.5 && { category: random.pick(DEFAULT_CATEGORIES) }) }),
    () => ({ zip: zip() }),
    () => {
      const from = date()
      return {
        category: random.pick(DEFAULT_CATEGORIES),
        zip: zip().slice(0, 2),
        from,
        to: addDaysIso(from, random.int(7, 45)),
        page: String(random.int(2, 3)),
      }
    },
  ]
  return () => {
    const params = new URLSearchParams(kinds[n % kinds.length]!())
    params.set('v', String(++n))
    return `/calendar?${params}`
  }
}
