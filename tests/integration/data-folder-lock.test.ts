/**
 * The embedded database folder's lock: it names its holder, a dead holder's lock is taken over at once (a crash is
 * not a lock), a live holder's is refused with its pid and since when, and only one of two racing starters wins.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, expect, test, vi } from 'vitest'
import {
  DatabaseLockedError,
  lockDataFolder,
  lockFileFor,
  stillHeld,
  type LockHolder,
} from '#db/data-folder-lock.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const root = path.join(TMP_DIR, `folder-lock-${process.pid}-${Date.now().toString(36)}`)
let n = 0
const newFolder = () => path.join(root, `case-${++n}`, 'pg')
const releases: Array<() => void> = []

afterEach(() => {
  for (const release of releases.splice(0)) release()
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

async function lock(folder: string) {
  const taken = await lockDataFolder(folder)
  releases.push(taken.release)
  return taken
}

function writeHolder(folder: string, holder: Partial<LockHolder>) {
  fs.mkdirSync(path.dirname(folder), { recursive: true })
  fs.mkdirSync(folder, { recursive: true })
  const record: LockHolder = {
    folder: path.resolve(folder),
    dataDirIno: fs.statSync(path.dirname(folder)).ino,
    pid: process.pid,
    host: os.hostname(),
    bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    processStart: '',
    since: '2026-01-02T03:04:05.000Z',
    token: 'earlier',
    ...holder,
  }
  fs.writeFileSync(lockFileFor(folder), JSON.stringify(record))
}

const readHolder = (folder: string) => JSON.parse(fs.readFileSync(lockFileFor(folder), 'utf8')) as LockHolder

/** A process that has started and ended: its pid names no running process. */
async function deadPid() {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

test('the lock records its holder: pid, host, start time', async () => {
  const folder = newFolder()
  await lock(folder)
  const holder = readHolder(folder)
  expect(holder.pid).toBe(process.pid)
  expect(holder.host).toBe(os.hostname())
  expect(holder.processStart).toMatch(/^\d+$/)
  expect(Date.parse(holder.since)).toBeGreaterThan(Date.now() - 60_000)
})

test('a dead holder’s lock (kill -9, a crash) is taken over at once', async () => {
  const folder = newFolder()
  writeHolder(folder, { pid: await deadPid() })
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  await lock(folder)
  // One round: the dead holder's lock cleared once, then taken, with no waiting for it to go stale.
  expect(warn.mock.calls.filter(([message]) => /^Taking over the lock/.test(String(message)))).toHaveLength(1)
  warn.mockRestore()
  expect(readHolder(folder).pid).toBe(process.pid)
  expect(readHolder(folder).token).not.toBe('earlier')
})

test('a holder that has died but is not yet collected by its parent (a zombie) is taken over at once', async () => {
  const folder = newFolder()
  // The shell starts `sleep 0` and becomes `sleep 60`, which never collects it: `sleep 0` stays a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'])
  try {
    const pid = Number(
      await new Promise<string>((resolve) =>
        parent.stdout.once('data', (chunk: Buffer) => resolve(String(chunk))),
      ),
    )
    await vi.waitFor(() => expect(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /))
    writeHolder(folder, { pid })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await lock(folder)
    warn.mockRestore()
    expect(readHolder(folder).token).not.toBe('earlier')
  } finally {
    parent.kill('SIGKILL')
  }
})

test('a pid now used by a later process (a restarted container is pid 1 again) is not taken for the holder', async () => {
  const folder = newFolder()
  writeHolder(folder, { pid: process.pid, processStart: '1' })
  await lock(folder)
  expect(readHolder(folder).token).not.toBe('earlier')
})

test('a lock from before the machine restarted is taken over', async () => {
  const folder = newFolder()
  writeHolder(folder, { pid: process.pid, bootId: 'another-boot' })
  await lock(folder)
  expect(readHolder(folder).token).not.toBe('earlier')
})

test('a live holder is refused, naming its pid and since when', async () => {
  const folder = newFolder()
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
  try {
    writeHolder(folder, { pid: sleeper.pid!, processStart: '' })
    const refusal = lockDataFolder(folder)
    await expect(refusal).rejects.toThrow(DatabaseLockedError)
    await expect(refusal).rejects.toThrow(
      `in use by another process (pid ${sleeper.pid}, since 2026-01-02T03:04:05.000Z)`,
    )
    expect(readHolder(folder).token).toBe('earlier')
  } finally {
    sleeper.kill('SIGKILL')
  }
})

test('a holder on another machine cannot be checked from here, so it is refused and named', async () => {
  const folder = newFolder()
  writeHolder(folder, { host: 'other-machine.example', pid: await deadPid() })
  await expect(lockDataFolder(folder)).rejects.toThrow(/pid \d+ on other-machine\.example/)
})

test('a lock copied along with a running server’s folder (cp -a data copy) does not hold the copy', async () => {
  const original = newFolder()
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
  try {
    writeHolder(original, { pid: sleeper.pid!, processStart: '' })
    const copy = path.join(root, `copy-${n}`, 'pg')
    fs.cpSync(path.dirname(original), path.dirname(copy), { recursive: true })
    await expect(lockDataFolder(original)).rejects.toThrow(DatabaseLockedError)
    await lock(copy)
    expect(readHolder(copy).pid).toBe(process.pid)
  } finally {
    sleeper.kill('SIGKILL')
  }
})

test('a second opener in the same process is refused while the first holds the lock', async () => {
  const folder = newFolder()
  await lock(folder)
  await expect(lockDataFolder(folder)).rejects.toThrow(`(pid ${process.pid}, since`)
})

test('two starters finding one dead lock: exactly one takes it', async () => {
  for (let round = 0; round < 5; round++) {
    const folder = newFolder()
    writeHolder(folder, { pid: await deadPid() })
    const results = await Promise.allSettled([lockDataFolder(folder), lockDataFolder(folder)])
    const won = results.filter((r) => r.status === 'fulfilled')
    expect(won).toHaveLength(1)
    for (const r of won) releases.push(r.value.release)
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(DatabaseLockedError)
  }
})

test('the folder lock of earlier versions: a crashed one’s is taken over, a live one’s (refreshed) refused', async () => {
  const crashed = newFolder()
  fs.mkdirSync(lockFileFor(crashed), { recursive: true })
  const old = new Date(Date.now() - 60_000)
  fs.utimesSync(lockFileFor(crashed), old, old)
  await lock(crashed)
  expect(readHolder(crashed).pid).toBe(process.pid)

  const live = newFolder()
  fs.mkdirSync(lockFileFor(live), { recursive: true })
  await expect(lockDataFolder(live)).rejects.toThrow(DatabaseLockedError)
})

test('the holder knows at once when its lock is removed or replaced, and its release leaves another’s lock alone', async () => {
  const folder = newFolder()
  const taken = await lockDataFolder(folder)
  expect(stillHeld(taken.identity)).toBe(true)
  fs.rmSync(lockFileFor(folder))
  expect(stillHeld(taken.identity)).toBe(false)
  writeHolder(folder, { token: 'someone-else' })
  expect(stillHeld(taken.identity)).toBe(false)
  taken.release()
  expect(readHolder(folder).token).toBe('someone-else')
})
