import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { todayInZone } from '#app/utils/time.ts'
import { explainCalendarQueries } from './explain-calendar.ts'
const dir = process.argv[2]!
const kind = process.argv[3] ?? 'narrow'
process.env.DATA_DIR = dir
process.env.DATABASE_URL = ''
const { openEmbeddedDatabase, useDatabase } = await import('#db/client.server.ts')
const handle = await openEmbeddedDatabase(dir)
useDatabase(handle)
const today = todayInZone('America/New_York')
const filtersOf = (i: number) => kind === 'narrow' ? { ...EMPTY_CALENDAR_FILTERS, keyword: `Ref ${1000 + i}` } : { ...EMPTY_CALENDAR_FILTERS, to: `2027-0${1 + (i % 9)}-1${i % 10}` }
const totals = new Map<string, number>()
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < 200; i++) {
    const qs = await explainCalendarQueries(filtersOf(i + round * 200) as any, { today, page: 1 })
    for (const [name, q] of qs) {
      const t = performance.now()
      await handle.db.execute(q as any)
      if (round > 0) totals.set(name, (totals.get(name) ?? 0) + performance.now() - t)
    }
  }
}
for (const [k, v] of totals) console.log(k.padEnd(30), (v / 400).toFixed(3), 'ms')
useDatabase(undefined)
await handle.close()
