/**
 * Where media bytes live: one interface, two backends (chosen in media.server.ts). The local folder `${DATA_DIR}/media` is the default;
 * with `S3_BUCKET` set, an S3-compatible bucket, so several servers share one store. Keys follow the
 * `images|videos/yyyy-mm/yyyy-mm-dd_ID.ext` for stored media, `tmp/<uuid>….ext` for files staged between an
 * upload and its save (a no-JavaScript draft keeps them across requests, which may reach different servers), and
 * `share/ID/<kind>-<hash>.jpg` for a live event's share images, drawn on their first request (share-images).
 */
import path from 'node:path'
import type { Readable } from 'node:stream'
import { getEnv } from '../platform/env.server.ts'

export interface StoredObject {
  size: number
  modified: Date
  /** Changes whenever the object at a key is replaced: the `?v=` of media URLs and part of the ETag. */
  version: string
}

export interface MediaObject extends StoredObject {
  /** The requested bytes; destroying it stops the read and releases what it holds. */
  body: Readable
}

export interface ByteRange {
  start: number
  end: number
}

/** A local file handed over whole (it is consumed: moved or deleted), or a stream of unknown length. */
export type PutSource = { file: string } | Readable

export interface MediaStorage {
  /** Writes `key` in one step: readers see the old object or the new one, never a part. */
  put(key: string, source: PutSource, contentType: string): Promise<StoredObject>
  /**
   * The object's bytes (all, or `range` inclusive); null when it is missing, or when `version` is given and the
   * object has been replaced since.
   */
  get(key: string, options?: { range?: ByteRange; version?: string }): Promise<MediaObject | null>
  head(key: string): Promise<StoredObject | null>
  /** Missing keys are no error. */
  delete(keys: Iterable<string>): Promise<void>
  /** Replaces `to` with `from`, which is gone afterwards. */
  move(from: string, to: string, contentType: string): Promise<StoredObject>
  /** Every key under `prefix`, with when it was written. */
  list(prefix: string): AsyncIterable<{ key: string; modified: Date }>
}

export const STAGING_PREFIX = 'tmp/'

const MEDIA_KEY = /^(images|videos)\/\d{4}-\d{2}\/[A-Za-z0-9_-]{1,80}\.[a-z0-9]{2,5}$/
const STAGING_KEY = /^tmp\/[A-Za-z0-9_-]{1,80}\.[a-z0-9]{2,5}$/
export const SHARE_IMAGES_PREFIX = 'share/'
const SHARE_IMAGE_KEY = /^share\/[1-9]\d{0,11}\/[a-z0-9]{1,8}-[0-9a-f]{16}\.jpg$/

export function isStorageKey(key: string) {
  return MEDIA_KEY.test(key) || STAGING_KEY.test(key) || SHARE_IMAGE_KEY.test(key)
}

/** Only keys this code writes reach a backend, so no key can name anything outside the store's own folders. */
export function assertStorageKey(key: string) {
  if (!isStorageKey(key)) throw new Error(`Not a media storage key: ${key}`)
  return key
}

/** `${DATA_DIR}/media`: the local backend's folder, and scratch space for uploads being checked with either. */
export function mediaRoot() {
  return path.resolve(getEnv().DATA_DIR, 'media')
}
