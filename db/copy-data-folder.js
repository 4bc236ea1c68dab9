// @ts-check
/**
 * The file copies of a hot backup of the embedded database (pglite-thread.server.ts `copyDataDir`), run as a child
 * process at the lowest CPU priority: copying a data directory takes the CPU for a second or more at 100,000 events,
 * and in the server's own process that second was taken from the requests being served. Plain JavaScript, so the
 * built server and the tests run the same file.
 *
 * Usage: node db/copy-data-folder.js folder <from> <into>
 *        node db/copy-data-folder.js segments <wal folder> <into> <name>…
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/**
 * What a copy of a running data directory leaves out: the WAL (copied at the end, see `backupStop` in the worker),
 * the running server's own files, and a previous backup's label.
 */
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map'])

/**
 * Copies `from` into `into` file by file; a file removed meanwhile (a dropped table, a temporary file) is skipped.
 * @param {string} from
 * @param {string} into
 */
async function copyFolder(from, into, { top = true } = {}) {
  await fsp.mkdir(into, { recursive: true, mode: 0o700 })
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    if (NOT_COPIED.has(entry.name)) continue
    const source = path.join(from, entry.name)
    const target = path.join(into, entry.name)
    if (entry.isDirectory()) {
      if (top && entry.name === 'pg_wal') await fsp.mkdir(target, { recursive: true, mode: 0o700 })
      else await copyFolder(source, target, { top: false })
    } else if (entry.isFile()) {
      await fsp.copyFile(source, target).catch((/** @type {NodeJS.ErrnoException} */ error) => {
        if (error.code !== 'ENOENT') throw error
      })
    }
  }
}

/**
 * Replaces the WAL segments `names`, hard-linked from `wal` into `into`, by copies of their own. Complete segments
 * are not written again unless PostgreSQL recycles one (renames it to a later name to fill it anew, after a
 * checkpoint); a segment no longer under its name once copied may have been, so the copy is refused.
 * @param {string} wal
 * @param {string} into
 * @param {string[]} names
 */
async function copyLinkedSegments(wal, into, names) {
  for (const name of names) {
    const linked = path.join(into, name)
    const { ino } = await fsp.stat(linked)
    await fsp.copyFile(linked, `${linked}.copy`)
    await fsp.rename(`${linked}.copy`, linked)
    const still = await fsp.stat(path.join(wal, name)).catch(() => null)
    if (still?.ino !== ino)
      throw new Error(`The WAL segment ${name} was recycled while it was copied; run the backup again.`)
  }
}

const [mode, from, into, ...names] = process.argv.slice(2)
try {
  os.setPriority(os.constants.priority.PRIORITY_LOW)
  if (!from || !into || !fs.existsSync(from)) throw new Error(`Nothing to copy at ${from}`)
  if (mode === 'folder') await copyFolder(from, into)
  else if (mode === 'segments') await copyLinkedSegments(from, into, names)
  else throw new Error(`Unknown copy: ${mode}`)
} catch (error) {
  process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 1
}
