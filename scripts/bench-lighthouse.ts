/**
 * Lighthouse scores: `npm run bench:lighthouse` after `npx remix vite:build` (it builds nothing itself).
 *
 * Starts the built app on a free port with the demo data in a fresh embedded database, then runs Lighthouse (mobile,
 * simulated throttling: its defaults) in the system Chromium on /landing, /public, /calendar, a live event's page
 * and /login, and prints the performance, accessibility, best practices and SEO scores of each, with the audits that
 * cost points. Informational: it exits 1 only when something fails to run.
 *
 * Options: --verbose (every audit under 1, not only the first few per page).
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { getEnv } from '#app/services/platform/env.server.ts'
import { mediaStorage } from '#app/services/media/media.server.ts'
import { openConfiguredDatabase } from '#db/client.server.ts'
import { seedDemoData } from '#db/seed.ts'
import { CHROMIUM_ARGS, findChromium } from '#tests/e2e/chromium.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { benchEnvironment, builtAppExists } from './bench-server.ts'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const VERBOSE = process.argv.includes('--verbose')
const AUDITS_SHOWN = VERBOSE ? Infinity : 6

async function seedDemo() {
  const env = getEnv()
  const handle = await openConfiguredDatabase(env)
  try {
    await seedDemoData(handle.db, {
      putMedia: (key, bytes, contentType) => mediaStorage().put(key, Readable.from([bytes]), contentType),
      timeZone: env.APP_TIME_ZONE,
    })
  } finally {
    await handle.close()
  }
}

async function liveEventPath(base: string) {
  const res = await fetch(`${base}/api/public-events?limit=1`)
  const [event] = (await res.json()) as Array<{ eventID: number }>
  if (!event) throw new Error('The demo data has no live event')
  return `/event/${event.eventID}?viewMode=true`
}

async function main() {
  if (!builtAppExists()) process.exit(1)
  const { dataDir, env } = benchEnvironment('eventshout-lighthouse-')
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined
  let chrome: chromeLauncher.LaunchedChrome | undefined
  try {
    await seedDemo()
    server = await startServerProcess({ env })
    const paths = ['/landing', '/public', '/calendar', await liveEventPath(server.base), '/login']
    chrome = await chromeLauncher.launch({
      chromePath: findChromium(),
      chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    })
    const rows: Array<Record<string, string | number>> = []
    for (const path of paths) {
      const result = await lighthouse(`${server.base}${path}`, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: [...CATEGORIES],
      })
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`)
      const { lhr } = result
      const row: Record<string, string | number> = { page: path }
      for (const id of CATEGORIES) row[id] = Math.round((lhr.categories[id]?.score ?? 0) * 100)
      rows.push(row)
      const costly = CATEGORIES.flatMap((id) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0)
          .map((ref) => lhr.audits[ref.id]!)
          .filter((audit) => audit.score !== null && audit.score < 1)
          .map((audit) => `${id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`),
      )
      console.info(`${path}: ${CATEGORIES.map((id) => `${id} ${row[id]}`).join(', ')}`)
      for (const line of costly.slice(0, AUDITS_SHOWN)) console.info(`  - ${line}`)
      if (costly.length > AUDITS_SHOWN) console.info(`  … ${costly.length - AUDITS_SHOWN} more (--verbose)`)
    }
    const width = Math.max(...rows.map((r) => String(r.page).length))
    console.info(`\n${'page'.padEnd(width)}  ${CATEGORIES.join('  ')}`)
    for (const row of rows) {
      console.info(
        `${String(row.page).padEnd(width)}  ${CATEGORIES.map((id) => String(row[id]).padStart(id.length)).join('  ')}`,
      )
    }
  } finally {
    await chrome?.kill()
    if (server) await stopServer(server.server)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
