/**
 * The local folder backend: `<root>/images|videos/yyyy-mm/…` as plain files, written by rename so a replacement is
 * atomic (docs/decisions/002).
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  assertStorageKey,
  isStorageKey,
  type MediaStorage,
  type StoredObject,
} from './media-storage.server.ts'

export function versionOf(mtimeMs: number) {
  return Math.floor(mtimeMs).toString(36)
}

function described(stat: fs.Stats): StoredObject {
  return { size: stat.size, modified: stat.mtime, version: versionOf(stat.mtimeMs) }
}

/** Moves a file, atomically replacing the target; across file systems through a temp copy beside the target. */
export async function moveFile(from: string, to: string) {
  try {
    await fsp.rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    const partial = `${to}.${randomUUID()}.part`
    try {
      await fsp.copyFile(from, partial)
      await fsp.rename(partial, to)
    } finally {
      await Promise.all([partial, from].map((p) => fsp.rm(p, { force: true }).catch(() => {})))
    }
  }
}

export function localMediaStorage(root: string): MediaStorage {
  const pathOf = (key: string) => {
    const resolved = path.resolve(root, assertStorageKey(key))
    if (!resolved.startsWith(root + path.sep)) throw new Error(`Not a media storage key: ${key}`)
    return resolved
  }
  const place = async (target: string, from: string) => {
    await fsp.mkdir(path.dirname(target), { recursive: true })
    await moveFile(from, target)
    return described(await fsp.stat(target))
  }

  return {
    async put(key, source) {
      const target = pathOf(key)
      if (!(source instanceof Readable)) return place(target, source.file)
      await fsp.mkdir(path.dirname(target), { recursive: true })
      const partial = `${target}.${randomUUID()}.part`
      try {
        await pipeline(source, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }))
        return await place(target, partial)
      } finally {
        await fsp.rm(partial, { force: true }).catch(() => {})
      }
    },

    async get(key, { range, version } = {}) {
      let handle: fsp.FileHandle
      try {
        handle = await fsp.open(pathOf(key), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
      } catch {
        return null
      }
      let handed = false
      try {
        const stat = await handle.stat()
        if (!stat.isFile()) return null
        const object = described(stat)
        if (version !== undefined && object.version !== version) return null
        const { start, end } = range ?? { start: 0, end: stat.size - 1 }
        if (end < start) return { ...object, body: Readable.from([]) }
        handed = true
        return { ...object, body: handle.createReadStream({ start, end, autoClose: true }) }
      } finally {
        if (!handed) await handle.close()
      }
    },

    async head(key) {
      const stat = await fsp.lstat(pathOf(key)).catch(() => null)
      return stat?.isFile() ? described(stat) : null
    },

    async delete(keys) {
      await Promise.all(Array.from(keys, async (key) => fsp.rm(pathOf(key), { force: true })))
    },

    async move(from, to) {
      return place(pathOf(to), pathOf(from))
    },

    async *list(prefix) {
      const folder = path.join(root, prefix)
      const names = await fsp.readdir(folder, { recursive: true }).catch(() => [] as string[])
      for (const name of names) {
        const key = `${prefix}${name.split(path.sep).join('/')}`
        if (!isStorageKey(key)) continue
        const stat = await fsp.lstat(path.join(folder, name)).catch(() => null)
        if (stat?.isFile()) yield { key, modified: stat.mtime }
      }
    },
  }
}
