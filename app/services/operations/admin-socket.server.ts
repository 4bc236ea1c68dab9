/**
 * The server's admin socket: HTTP on a Unix domain socket, `$DATA_DIR/admin.sock`, for commands run on the
 * server's machine that need the running process (the embedded database can only be read by the process holding
 * it). Local and private by construction: a socket file, mode 0600, so only the server's own user can connect, and
 * never a TCP port. A small router: each command is a method and a path (docs/decisions/019).
 */
import fs from 'node:fs'
import http from 'node:http'
import { constants } from 'node:http2'
import net from 'node:net'
import path from 'node:path'
import { asBackgroundWork } from '#db/background-work.server.ts'
import { getDatabaseHandle } from '#db/client.server.ts'
import { clearBackupLeftovers, prepareBackup, type PreparedBackup } from './backup.server.ts'
import { runSubscriberJob, type SubscriberJob } from '../subscriptions/subscriber-jobs.server.ts'
import { adminSocketPath } from './admin-socket-path.server.ts'
import { logError } from '../platform/logger.server.ts'

type AdminCommand = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>

/**
 * The socket's own answers, for the commands in scripts/ (not the site's refusals, which are AppError kinds): HTTP
 * statuses by Node's names, so a command reads 200 as done and anything else as the `error` of the JSON body.
 */
const ADMIN_STATUS = {
  done: constants.HTTP_STATUS_OK,
  unknownCommand: constants.HTTP_STATUS_NOT_FOUND,
  alreadyRunning: constants.HTTP_STATUS_CONFLICT,
  failed: constants.HTTP_STATUS_INTERNAL_SERVER_ERROR,
} as const

function answer(res: http.ServerResponse, status: number, message: string) {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  res.end(JSON.stringify({ error: message }))
}

/** What POST /backup answers, as one JSON line, once the backup's files are ready to be packed. */
export interface PreparedBackupAnswer {
  folder: string
  entries: string[]
  dumpMs: number
}

let backupRunning = false

/**
 * POST /backup: prepares the backup's files (prepareBackup) and answers where they are, as one JSON line; the
 * command packs and compresses them in its own process, at a low priority, so that work is never the site's. The
 * files stay until the command closes the connection (or the server stops).
 */
const backup: AdminCommand = async (_req, res) => {
  if (backupRunning)
    return answer(
      res,
      ADMIN_STATUS.alreadyRunning,
      'A backup is already running; try again once it has finished.',
    )
  backupRunning = true
  let prepared: PreparedBackup | undefined
  try {
    prepared = await prepareBackup(getDatabaseHandle())
    const { folder, entries, dumpMs } = prepared
    const kept = prepared
    const closed = new Promise((resolve) => res.once('close', resolve))
    res.writeHead(ADMIN_STATUS.done, { 'Content-Type': 'application/x-ndjson' })
    res.write(
      `${JSON.stringify({ folder, entries, dumpMs: Math.round(dumpMs) } satisfies PreparedBackupAnswer)}\n`,
    )
    await closed
    await kept.remove()
  } catch (error) {
    logError(error, { msg: 'The backup failed' })
    await prepared?.remove()
    if (!res.headersSent) answer(res, ADMIN_STATUS.failed, `The backup failed: ${(error as Error).message}`)
    else res.destroy()
  } finally {
    backupRunning = false
  }
}

/** POST /jobs/digests, /jobs/reminders: runs the job now (`npm run jobs -- digests --now`) and answers what it did. */
const subscriberJob =
  (job: SubscriberJob): AdminCommand =>
  async (_req, res) => {
    try {
      const outcome = await asBackgroundWork(() => runSubscriberJob(job, { force: true }))
      if (!outcome?.ran)
        return answer(
          res,
          ADMIN_STATUS.alreadyRunning,
          `The ${job} job is running already; try again once it has finished.`,
        )
      res.writeHead(ADMIN_STATUS.done, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(outcome.result))
    } catch (error) {
      logError(error, { msg: `The ${job} job failed` })
      answer(res, ADMIN_STATUS.failed, `The ${job} job failed: ${(error as Error).message}`)
    }
  }

const COMMANDS = new Map<string, AdminCommand>([
  ['POST /backup', backup],
  ['POST /jobs/digests', subscriberJob('digests')],
  ['POST /jobs/reminders', subscriberJob('reminders')],
])

async function route(req: http.IncomingMessage, res: http.ServerResponse) {
  const command = COMMANDS.get(`${req.method} ${new URL(req.url ?? '/', 'http://admin').pathname}`)
  if (!command)
    return answer(
      res,
      ADMIN_STATUS.unknownCommand,
      `Unknown command; this server knows: ${[...COMMANDS.keys()].join(', ')}`,
    )
  await command(req, res)
}

/** True when a process answers on the socket at `socketPath` (a server is running on that data folder). */
export function answersOn(socketPath: string) {
  return new Promise<boolean>((resolve) => {
    const probe = net.connect(socketPath)
    probe.once('connect', () => (probe.destroy(), resolve(true)))
    probe.once('error', () => resolve(false))
  })
}

/**
 * Listens on the admin socket (a stale one from a killed server is replaced) and returns how to stop: it stops
 * listening, ends a backup in progress and removes the socket.
 */
export function startAdminSocket(): () => Promise<void> {
  const socketPath = adminSocketPath()
  const server = http.createServer((req, res) => void route(req, res))
  let listening = false
  const start = async () => {
    // On PostgreSQL with the media in a bucket, nothing else may have made the data folder yet.
    fs.mkdirSync(path.dirname(socketPath), { recursive: true })
    if (fs.existsSync(socketPath)) {
      if (await answersOn(socketPath)) {
        console.warn(`Another server answers on ${socketPath}; this one has no admin socket.`)
        return
      }
      fs.rmSync(socketPath, { force: true })
    }
    clearBackupLeftovers()
    server.once('error', (error) =>
      console.warn(
        `No admin socket at ${socketPath} (${error.message}): npm run backup cannot reach this server.`,
      ),
    )
    // Created owner-only from the start (the umask applies when the socket file is made), then made sure of.
    const umask = process.umask(0o177)
    try {
      server.listen(socketPath, () => {
        listening = true
        fs.chmodSync(socketPath, 0o600)
      })
    } finally {
      process.umask(umask)
    }
  }
  const started = start().catch((error) => console.warn(`No admin socket: ${(error as Error).message}`))
  return async () => {
    await started
    if (!listening) return
    const closed = new Promise((resolve) => server.close(resolve))
    server.closeAllConnections()
    await closed
    fs.rmSync(socketPath, { force: true })
  }
}
