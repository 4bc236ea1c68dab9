// @ts-check
// `npm start`: the app on the embedded database (or DATABASE_URL) with the demo data, as a newcomer runs it. The app
// is built only when its sources are newer than the build (`npm run build` builds it anyway); then the server runs in
// this process and fills an empty database with the demo data itself (SEED_DEMO_DATA), so a restart on an existing
// folder costs what the server's own start costs: one process, the database opened and recovered once.
import { execFileSync } from 'node:child_process'
import { buildIsCurrent } from './build-freshness.js'

if (!buildIsCurrent()) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })

process.env.APP_ENV ??= 'development'
process.env.PORT ??= '3000'
process.env.HOST ??= '127.0.0.1'
process.env.SEED_DEMO_DATA ??= 'true'
await import('../server.js')
