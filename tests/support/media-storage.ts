/** Reading and writing stored media in tests through the app's own storage backend (a folder or a bucket). */
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { STAGING_PREFIX } from '#app/services/media/media-storage.server.ts'
import { mediaStorage } from '#app/services/media/media.server.ts'
import { MEDIA_EXTENSIONS } from '#app/utils/media-types.ts'

export async function putStored(key: string, bytes: Uint8Array | string) {
  const ext = key.slice(key.lastIndexOf('.') + 1)
  const contentType = MEDIA_EXTENSIONS[ext]?.contentType ?? 'application/octet-stream'
  return mediaStorage().put(key, Readable.from([Buffer.from(bytes)]), contentType)
}

/** The stored bytes, or null when nothing is stored under `key`. */
export async function readStored(key: string) {
  const object = await mediaStorage().get(key)
  return object ? buffer(object.body) : null
}

export async function storedExists(key: string) {
  return (await mediaStorage().head(key)) !== null
}

/** Files staged by uploads and not yet stored or discarded. */
export async function stagedKeys() {
  const keys: string[] = []
  for await (const { key } of mediaStorage().list(STAGING_PREFIX)) keys.push(key)
  return keys
}
