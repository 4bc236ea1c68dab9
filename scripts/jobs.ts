/**
 * `npm run jobs -- digests --now` and `npm run jobs -- reminders --now`: queue the subscribers' digests or the
 * reminders of tomorrow's events at once, in the outbox, instead of waiting for DIGEST_HOUR. On the embedded database
 * a running server on DATA_DIR does it (asked through its admin socket, $DATA_DIR/admin.sock, as a backup is); with
 * none running, or on PostgreSQL, this command opens the database itself, and then, without PUBLIC_URL, runs only on
 * the demo data (its emails' links would otherwise point at localhost). Either way a run already under way on any
 * server is not started twice.
 */
import http from 'node:http'
import { adminSocketPath } from '#app/services/operations/admin-socket-path.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import type {
  SubscriberJob,
  SubscriberRunResult,
} from '#app/services/subscriptions/subscriber-jobs.server.ts'

const USAGE = 'Usage: npm run jobs -- digests --now | npm run jobs -- reminders --now'
const JOBS: readonly SubscriberJob[] = ['digests', 'reminders']

class NoServer extends Error {}

/** The server's answer on its admin socket; NoServer when nothing listens there. */
function askServer(job: SubscriberJob): Promise<SubscriberRunResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: adminSocketPath(), method: 'POST', path: `/jobs/${job}` },
      (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.once('end', () => {
          const parsed = JSON.parse(body || '{}') as SubscriberRunResult & { error?: string }
          if (response.statusCode === 200) resolve(parsed)
          else reject(new Error(parsed.error ?? `The server answered ${response.statusCode}`))
        })
      },
    )
    request.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? new NoServer() : error),
    )
    request.end()
  })
}

/** Without a running server: opens the database here (the job's and the database's modules load only then). */
async function runHere(job: SubscriberJob): Promise<SubscriberRunResult> {
  const { openConfiguredDatabase, useDatabase } = await import('#db/client.server.ts')
  const { refuseLocalLinksOutsideTheDemo, runSubscriberJob } =
    await import('#app/services/subscriptions/subscriber-jobs.server.ts')
  const handle = await openConfiguredDatabase(getEnv())
  useDatabase(handle)
  try {
    await refuseLocalLinksOutsideTheDemo()
    const outcome = await runSubscriberJob(job, { force: true })
    if (!outcome?.ran) throw new Error(`The ${job} job is running already; try again once it has finished.`)
    return outcome.result
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
}

async function main(args: string[]) {
  const job = JOBS.find((name) => name === args[0])
  if (!job || !args.includes('--now')) {
    console.error(USAGE)
    return 2
  }
  let result: SubscriberRunResult
  let by = 'the running server'
  try {
    if (getEnv().DATABASE_URL) throw new NoServer()
    result = await askServer(job)
  } catch (error) {
    if (!(error instanceof NoServer)) throw error
    by = 'this command'
    result = await runHere(job)
  }
  console.info(
    `${job}: ${result.queued} email(s) queued in the outbox for ${result.checked} subscription(s) in ${(result.durationMs / 1000).toFixed(1)} s by ${by}.`,
  )
  if (result.follows)
    console.info(
      `of which followed businesses: ${result.follows.queued} email(s) for ${result.follows.checked} follow(s) in ${(result.follows.durationMs / 1000).toFixed(1)} s.`,
    )
  return 0
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  // A locked folder, a bad setting or the server's refusal: each says what to do.
  console.error((error as Error).message)
  process.exitCode = 1
}
