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
import { logError, logger } from '../platform/logger.server.ts'

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

/** How often a server checks that the admin socket is still its own, or, without it, whether its holder has gone. */
const ADMIN_SOCKET_CHECK_MS = 1000

/** The inode of the file at `file`, or undefined when there is none. */
function inodeAt(file: string) {
  return fs.statSync(file, { throwIfNoEntry: false })?.ino
}

/** Removes `file` if it is still the one with `ino` (not one another server has put there since). */
function removeIfStill(file: string, ino: number | undefined) {
  if (ino !== undefined && inodeAt(file) === ino) fs.rmSync(file, { force: true })
}

/**
 * Listens on the admin socket and returns how to stop: it stops listening, ends a backup in progress and removes
 * the socket. A stale socket from a killed server is replaced. While another server answers there (a rolling deploy
 * starts the new server before the old one stops; several servers on one machine share the data folder), this one
 * asks again every second and takes the socket over once that one has stopped.
 *
 * Taking it is atomic: the server listens on a socket file of its own name, then hard-links it to `admin.sock`, which
 * fails when another server was quicker. Closing a Unix socket server unlinks the path it listened on (libuv), so
 * that path is never `admin.sock` itself, which may be another server's by then; this one removes `admin.sock` only
 * while it is still its own.
 */
export function startAdminSocket(): () => Promise<void> {
  const socketPath = adminSocketPath()
  const ownPath = path.join(path.dirname(socketPath), `admin-${process.pid}.sock`)
  const server = http.createServer((req, res) => void route(req, res))
  /** The inode of `admin.sock` while it is this server's. */
  let heldIno: number | undefined
  let listening = false
  let waitingNoted = false
  let stopped = false
  let timer: ReturnType<typeof setInterval> | undefined = undefined

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      // Created owner-only from the start (the umask applies when the socket file is made), then made sure of.
      const umask = process.umask(0o177)
      try {
        server.listen(ownPath, () => {
          server.off('error', reject)
          resolve()
        })
      } finally {
        process.umask(umask)
      }
    })

  const close = async () => {
    if (!listening) return
    const closed = new Promise((resolve) => server.close(resolve))
    server.closeAllConnections()
    await closed
    listening = false
  }

  const noteWaiting = () => {
    if (!waitingNoted)
      console.warn(
        `Another server answers on ${socketPath}; this one takes the admin socket over once that one stops.`,
      )
    waitingNoted = true
  }

  const take = async () => {
    // On PostgreSQL with the media in a bucket, nothing else may have made the data folder yet.
    fs.mkdirSync(path.dirname(socketPath), { recursive: true })
    const found = inodeAt(socketPath)
    if (found !== undefined) {
      if (await answersOn(socketPath)) return noteWaiting()
      removeIfStill(socketPath, found)
    }
    fs.rmSync(ownPath, { force: true })
    await listen()
    listening = true
    fs.chmodSync(ownPath, 0o600)
    try {
      fs.linkSync(ownPath, socketPath)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      // Another waiting server was quicker.
      await close()
      return noteWaiting()
    }
    heldIno = inodeAt(socketPath)
    fs.rmSync(ownPath, { force: true })
    clearBackupLeftovers()
    if (waitingNoted) logger.info({ socket: socketPath }, 'Admin socket taken over')
  }

  const check = async () => {
    if (stopped) return
    if (heldIno !== undefined && inodeAt(socketPath) !== heldIno) {
      // Removed, or another server's now: this one's socket is out of reach, so it starts over.
      heldIno = undefined
      await close()
    }
    if (heldIno === undefined) await take()
  }

  /** A socket that cannot be made (a DATA_DIR too long for a socket path, say) is not tried again. */
  const checkOrGiveUp = () =>
    check().catch(async (error: Error) => {
      stopped = true
      clearInterval(timer)
      await close()
      console.warn(
        `No admin socket at ${socketPath} (${error.message}): npm run backup cannot reach this server.`,
      )
    })
  let work = checkOrGiveUp()
  timer = setInterval(() => {
    work = work.then(checkOrGiveUp)
  }, ADMIN_SOCKET_CHECK_MS)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await work
    // First the name, so a waiting server may take it at once; then the connections (a backup in progress).
    removeIfStill(socketPath, heldIno)
    heldIno = undefined
    await close()
  }
}
