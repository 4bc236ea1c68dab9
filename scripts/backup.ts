/**
 * `npm run backup -- <file>`: writes a backup archive (.tar.gz) of the database and its media to <file> while the
 * site keeps serving. A server running on DATA_DIR makes it (through its admin socket, $DATA_DIR/admin.sock);
 * when none runs, this command opens the database itself. The file appears only once the archive is complete and
 * has been read back.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { adminSocketPath } from '#app/services/operations/admin-socket-path.server.ts'
import type { PreparedBackupAnswer } from '#app/services/operations/admin-socket.server.ts'
import { readManifest, type BackupManifest } from '#app/services/operations/backup-archive.server.ts'
import { packBackup, workFolder, writeBackup } from '#app/services/operations/backup.server.ts'
import { EnvError, getEnv } from '#app/services/platform/env.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { DatabaseLockedError, openEmbeddedDatabase, openServerDatabase } from '#db/client.server.ts'

class NoServer extends Error {}

const SERVER_STOPPED = 'The server stopped before the archive was complete.'

/** The server's answer to POST /backup: the first line of the body, or its error. */
function preparedByServer(response: http.IncomingMessage) {
  return new Promise<PreparedBackupAnswer>((resolve, reject) => {
    let body = ''
    const onData = (chunk: Buffer) => {
      body += chunk.toString()
      const line = body.indexOf('\n')
      if (response.statusCode !== 200 || line === -1) return
      response.off('data', onData)
      resolve(JSON.parse(body.slice(0, line)) as PreparedBackupAnswer)
    }
    response.on('data', onData)
    response.once('end', () => {
      if (response.statusCode === 200) return reject(new AppError(SERVER_STOPPED, 'unexpected'))
      const message = (() => {
        try {
          return (JSON.parse(body) as { error?: string }).error
        } catch {
          return undefined
        }
      })()
      reject(new AppError(message ?? `The server answered ${response.statusCode}`, 'unexpected'))
    })
    response.once('error', () => reject(new AppError(SERVER_STOPPED, 'unexpected')))
  })
}

/**
 * Asks the server on the admin socket to prepare the backup's files, then packs and compresses them into `file`
 * here: that work is a background job next to the site, whose requests go first on a busy machine, so
 * `npm run backup` runs this command under `nice -n 19` (every thread of it: gzip runs on libuv's threads, which a
 * priority set from inside the process would not reach). The server keeps the files until this process closes the
 * connection. NoServer when nothing answers.
 */
async function backupThroughServer(socketPath: string, file: string) {
  const request = http.request({ socketPath, method: 'POST', path: '/backup' })
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve)
    request.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? new NoServer() : error),
    )
    request.end()
  })
  try {
    const prepared = await preparedByServer(response)
    // Only the server's own backup work folder: the answer names a folder this command then reads from.
    if (path.dirname(path.resolve(prepared.folder)) !== workFolder('backup'))
      throw new AppError('The server named a backup folder outside its data folder.', 'unexpected')
    let serverGone = false
    response.once('end', () => (serverGone = true))
    response.once('error', () => (serverGone = true))
    response.resume()
    try {
      await packBackup(prepared, fs.createWriteStream(file, { mode: 0o600 }))
    } catch (error) {
      // The server removes the files when it stops.
      if (serverGone || !fs.existsSync(prepared.folder)) throw new AppError(SERVER_STOPPED, 'unexpected')
      throw error
    }
    if (serverGone) throw new AppError(SERVER_STOPPED, 'unexpected')
    // Removed here, at this process's priority: deleting a data directory's copy is work too.
    fs.rmSync(prepared.folder, { recursive: true, force: true })
    return { dumpMs: prepared.dumpMs }
  } finally {
    request.destroy()
  }
}

/** No server runs: this process opens the database (on the embedded one, taking the data folder's lock). */
async function backupHere(file: string) {
  const env = getEnv()
  let handle
  try {
    handle = env.DATABASE_URL
      ? await openServerDatabase(env.DATABASE_URL, { runMigrations: false })
      : await openEmbeddedDatabase(env.DATA_DIR)
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new AppError(
        `${error.message}\nThat process does not answer on ${adminSocketPath()}, so it cannot make the backup: ` +
          'is it an older server, or a command such as npm run seed? Try again once it has stopped.',
        'conflict',
      )
    }
    throw error
  }
  try {
    const summary = await writeBackup(handle, fs.createWriteStream(file, { mode: 0o600 }))
    return { dumpMs: summary.dumpMs }
  } finally {
    await handle.close()
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

function describe(file: string, manifest: BackupManifest, ms: number, madeBy: string, dumpMs?: number) {
  const { counts, database, media } = manifest
  const copy = dumpMs === undefined ? '' : ` (the database copy took ${(dumpMs / 1000).toFixed(1)} s)`
  return [
    `Backup written to ${file} (${mb(fs.statSync(file).size)}) in ${(ms / 1000).toFixed(1)} s by ${madeBy}${copy}.`,
    `Database: ${database.kind}, ${database.migrations} migrations (last ${database.lastMigration}); ` +
      `${counts.events} events, ${counts.eventMedia} media rows, ${counts.businesses} businesses, ${counts.users} users.`,
    media.storage === 'local'
      ? `Media: ${media.keys.length} files (${mb(media.bytes)}).`
      : `Media: ${media.keys.length} keys listed; the files stay in the bucket (S3_BUCKET).`,
  ].join('\n')
}

async function main() {
  const target = process.argv[2]
  if (!target || target.startsWith('-')) {
    console.error('Usage: npm run backup -- <file.tar.gz>')
    return 2
  }
  const file = path.resolve(target)
  if (fs.existsSync(file)) throw new AppError(`${file} already exists; name a new file.`, 'conflict')
  const partial = `${file}.part`
  const started = performance.now()
  let madeBy = 'the running server'
  let dumpMs: number | undefined
  try {
    try {
      ;({ dumpMs } = await backupThroughServer(adminSocketPath(), partial))
    } catch (error) {
      if (!(error instanceof NoServer)) throw error
      madeBy = 'this command (no server was running)'
      ;({ dumpMs } = await backupHere(partial))
    }
    const manifest = await readManifest(partial)
    fs.renameSync(partial, file)
    console.info(describe(file, manifest, performance.now() - started, madeBy, dumpMs))
    return 0
  } finally {
    fs.rmSync(partial, { force: true })
  }
}

try {
  process.exitCode = await main()
} catch (error) {
  if (error instanceof AppError || error instanceof EnvError) {
    console.error(`The backup failed: ${error.message}`)
    process.exitCode = 1
  } else {
    throw error
  }
}
