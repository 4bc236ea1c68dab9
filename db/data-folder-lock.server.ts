/**
 * The embedded database's folder belongs to one process: two processes on one PGlite folder silently lose writes
 * and corrupt its indexes. The lock is a file beside the folder (`pg.lock`) that names its holder. A holder that is
 * no longer alive (a crash, `kill -9`, a power cut) is known at once, so a restart takes the lock over without
 * waiting; a live holder is named in the refusal.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface LockHolder {
  pid: number
  host: string
  /** Identifies this boot of the machine: after a reboot every recorded pid is meaningless. */
  bootId: string
  /** The process's start time as the kernel counts it (Linux), so a reused pid is not taken for the holder. */
  processStart: string
  /**
   * The locked folder, and the inode of the folder holding it and its lock (DATA_DIR): a lock copied along with a
   * data folder (`cp -a data copy`) is not the copy's. (Not the locked folder's own inode: a restore replaces it.)
   */
  folder: string
  dataDirIno: number
  /** When the lock was taken (ISO 8601), for the operator. */
  since: string
  token: string
}

/** What the holding process checks before each write to know the lock is still its own. */
export interface LockIdentity {
  path: string
  ino: number
  ctimeMs: number
}

export class DatabaseLockedError extends Error {}

const TAKEOVER_STALE_MS = 10_000

function readOrEmpty(file: string) {
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    return ''
  }
}

const bootId = () => readOrEmpty('/proc/sys/kernel/random/boot_id')

/** The fields of /proc/<pid>/stat from the third (the state) on: after the command name, which may hold spaces. */
function statFields(pid: number) {
  const stat = readOrEmpty(`/proc/${pid}/stat`)
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** Field 22 of /proc/<pid>/stat. */
const processStart = (pid: number) => statFields(pid)[19] ?? ''

function pidAlive(pid: number) {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A process that has died but that its parent has not collected yet (a zombie: a supervisor's child whose own
  // parent was killed with it, say) still answers, yet holds nothing any more.
  return statFields(pid)[0] !== 'Z'
}

/** Identifies the data folder: a copy (`cp -a data backup`) has another inode even where the path is reused. */
function folderIdentity(folder: string) {
  const dataDir = path.dirname(path.resolve(folder))
  fs.mkdirSync(dataDir, { recursive: true })
  return { folder: path.resolve(folder), dataDirIno: fs.statSync(dataDir).ino }
}

/**
 * Whether the recorded holder may still be running this folder. Another machine's process cannot be checked from
 * here; a lock that came with a copy of another folder names no holder of this one.
 */
export function holderAlive(holder: LockHolder, folder: string) {
  const here = folderIdentity(folder)
  if (
    holder.folder &&
    holder.dataDirIno !== undefined &&
    (holder.folder !== here.folder || holder.dataDirIno !== here.dataDirIno)
  )
    return false
  if (holder.host !== os.hostname()) return true
  if (holder.bootId && bootId() && holder.bootId !== bootId()) return false
  if (!pidAlive(holder.pid)) return false
  // The pid is taken by a process started later than the holder: the holder is gone (in a container every server
  // is pid 1, so a restarted one finds its own pid in the lock).
  const start = processStart(holder.pid)
  return !(holder.processStart && start && holder.processStart !== start)
}

function parseHolder(text: string): LockHolder | null {
  try {
    const holder = JSON.parse(text) as LockHolder
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : null
  } catch {
    return null
  }
}

export function lockFileFor(folder: string) {
  return `${path.resolve(folder)}.lock`
}

function identityOf(file: string): LockIdentity {
  const stat = fs.statSync(file)
  return { path: file, ino: stat.ino, ctimeMs: stat.ctimeMs }
}

/** Whether the lock file is still the one this process created (not removed, not replaced). */
export function stillHeld(identity: LockIdentity) {
  try {
    const stat = fs.statSync(identity.path)
    return stat.ino === identity.ino && stat.ctimeMs === identity.ctimeMs
  } catch {
    return false
  }
}

/** Writes the holder's record in full under a temporary name and links it into place: no one reads half a record. */
function tryCreate(file: string, holder: LockHolder) {
  const temporary = `${file}.${holder.token}.tmp`
  fs.writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: 0o644 })
  try {
    fs.linkSync(temporary, file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}

/**
 * Removes a dead holder's lock. Two processes starting at once may both find it dead; the takeover folder (made
 * atomically) lets one remove it, and it removes only the record it judged, never a lock taken meanwhile.
 */
function removeStale(file: string, judged: string) {
  const takeover = `${file}.takeover`
  try {
    fs.mkdirSync(takeover)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // Left by a process that died in the middle of a takeover.
    const age = Date.now() - (fs.statSync(takeover, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
    if (age > TAKEOVER_STALE_MS) fs.rmSync(takeover, { recursive: true, force: true })
    return
  }
  try {
    if (readOrEmpty(file) === judged) fs.rmSync(file, { force: true })
  } finally {
    fs.rmSync(takeover, { recursive: true, force: true })
  }
}

/**
 * Earlier versions locked with a folder whose time was refreshed every 5 s: one left by a crash is older than that,
 * one still refreshed belongs to a running server of that version.
 */
function clearFolderLock(folder: string, file: string) {
  const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0)
  if (age < 15_000) {
    throw new DatabaseLockedError(
      `The embedded database in ${folder} is in use by another process (is the server running?). Stop that process first.`,
    )
  }
  fs.rmSync(file, { recursive: true, force: true })
}

function describeHolder(folder: string, holder: LockHolder | null, lockFile: string) {
  if (!holder) {
    return `The embedded database in ${folder} is locked by ${lockFile}, which cannot be read. If no server uses the folder, remove that file.`
  }
  const where = holder.host === os.hostname() ? '' : ` on ${holder.host}`
  return (
    `The embedded database in ${folder} is in use by another process (pid ${holder.pid}${where}, since ${holder.since}). ` +
    'Stop that process first, or point DATABASE_URL at a PostgreSQL server.'
  )
}

/**
 * Takes the folder's lock for this process, taking over a dead holder's at once. Throws DatabaseLockedError naming
 * a live holder. Returns what the process checks before writing (`stillHeld`) and the release.
 */
export async function lockDataFolder(folder: string) {
  fs.mkdirSync(path.dirname(path.resolve(folder)), { recursive: true })
  const file = lockFileFor(folder)
  const holder: LockHolder = {
    ...folderIdentity(folder),
    pid: process.pid,
    host: os.hostname(),
    bootId: bootId(),
    processStart: processStart(process.pid),
    since: new Date().toISOString(),
    token: crypto.randomBytes(12).toString('hex'),
  }
  // A few rounds: each either takes the lock, finds a live holder, or clears a dead one.
  for (let attempt = 0; attempt < 50; attempt++) {
    if (tryCreate(file, holder)) {
      const identity = identityOf(file)
      return {
        identity,
        release() {
          if (stillHeld(identity)) fs.rmSync(file, { force: true })
        },
      }
    }
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
      clearFolderLock(folder, file)
      continue
    }
    const judged = readOrEmpty(file)
    const current = parseHolder(judged)
    if (current && holderAlive(current, folder))
      throw new DatabaseLockedError(describeHolder(folder, current, file))
    if (!current && judged) throw new DatabaseLockedError(describeHolder(folder, null, file))
    if (current)
      console.warn(`Taking over the lock of ${folder} from pid ${current.pid}, which no longer holds it`)
    removeStale(file, judged)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new DatabaseLockedError(
    `The embedded database in ${folder} could not be locked: another process keeps taking it.`,
  )
}
