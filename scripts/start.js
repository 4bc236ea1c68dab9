// @ts-check
// `npm start`: the app on the embedded database (or DATABASE_URL) with the demo data, as a newcomer runs it. The app
// is built only when its sources are newer than the build (`npm run build` builds it anyway); then the server runs in
// this process and fills an empty database with the demo data itself (SEED_DEMO_DATA), so a restart on an existing
// folder costs what the server's own start costs: one process, the database opened and recovered once.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** What the build is made from: a change to any of these makes the build out of date. */
const SOURCES = [
  'app',
  'db',
  'public',
  'vite.config.ts',
  'remix.config.js',
  'tsconfig.json',
  'package-lock.json',
]
const BUILT = ['build/server/index.js', 'build/client']

/** The newest modification time under `target` (a file or a folder), in ms; 0 if it does not exist. */
function newestChange(target) {
  let stat
  try {
    stat = fs.statSync(target)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestChange(path.join(target, entry)))
  return newest
}

function buildIsCurrent() {
  if (!BUILT.every((target) => fs.existsSync(target))) return false
  const built = fs.statSync(BUILT[0]).mtimeMs
  return SOURCES.every((source) => newestChange(source) <= built)
}

if (!buildIsCurrent()) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })

process.env.APP_ENV ??= 'development'
process.env.PORT ??= '3000'
process.env.HOST ??= '127.0.0.1'
process.env.SEED_DEMO_DATA ??= 'true'
await import('../server.js')
