/**
 * The S3-compatible bucket backend (AWS S3, Cloudflare R2, MinIO, Ceph…) through the AWS SDK v3. Uploads stream
 * in parts (`@lib-storage`'s Upload: a few 5 MiB parts in memory, never the whole file); reads stream the
 * requested range. Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
 * AWS_PROFILE, an instance role…).
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import { Readable } from 'node:stream'
import type * as ClientS3 from '@aws-sdk/client-s3'
import type * as LibStorage from '@aws-sdk/lib-storage'
import { lazyRequire } from '../platform/lazy-require.server.ts'
import { assertStorageKey, type MediaStorage, type StoredObject } from './media-storage.server.ts'

let sdk: (typeof ClientS3 & Pick<typeof LibStorage, 'Upload'>) | undefined

/** The AWS SDK, loaded when a bucket is first used. */
export function awsSdk() {
  sdk ??= {
    ...(lazyRequire('@aws-sdk/client-s3') as typeof ClientS3),
    Upload: (lazyRequire('@aws-sdk/lib-storage') as typeof LibStorage).Upload,
  }
  return sdk
}

export interface S3Options {
  bucket: string
  endpoint?: string
  region?: string
  forcePathStyle?: boolean
}

/** 5 MiB is S3's smallest part; two in flight keep a 50 MB upload quick while holding little. */
const PART_BYTES = 5 * 1024 * 1024
const PARTS_IN_FLIGHT = 2
const DELETE_BATCH = 1000

/**
 * Every write stamps a new version in the object's metadata: the ETag alone is a digest of the content, so the same
 * photo uploaded again would keep its URL, and LastModified has only whole seconds.
 */
function newVersion() {
  return `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`
}

function versionOf(out: { Metadata?: Record<string, string>; ETag?: string }) {
  return out.Metadata?.v ?? ((out.ETag ?? '').replace(/[^0-9a-z]/gi, '').slice(0, 24) || '0')
}

/**
 * The errors S3 names an object that is not there: GetObject's NoSuchKey, HeadObject's NotFound (a HEAD answer has
 * no body, so the SDK names it by its not-found status), and a precondition on an object that has been replaced.
 */
const MISSING_OBJECT_ERRORS = new Set(['NoSuchKey', 'NotFound', 'PreconditionFailed'])

function isMissing(error: unknown) {
  return error instanceof awsSdk().S3ServiceException && MISSING_OBJECT_ERRORS.has(error.name)
}

export function s3MediaStorage({ bucket, endpoint, region, forcePathStyle }: S3Options): MediaStorage {
  const {
    CopyObjectCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    S3Client,
    Upload,
  } = awsSdk()
  const client = new S3Client({
    endpoint,
    region: region ?? 'us-east-1',
    forcePathStyle,
    // S3-compatible stores other than AWS often refuse the newer default checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })

  async function head(key: string): Promise<StoredObject | null> {
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: assertStorageKey(key) }))
      return {
        size: out.ContentLength ?? 0,
        modified: out.LastModified ?? new Date(0),
        version: versionOf(out),
      }
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }

  async function headAfterWrite(key: string) {
    const object = await head(key)
    if (!object) throw new Error(`Stored object vanished: ${key}`)
    return object
  }

  async function remove(keys: Iterable<string>) {
    const all = Array.from(keys, assertStorageKey)
    for (let i = 0; i < all.length; i += DELETE_BATCH) {
      const batch = all.slice(i, i + DELETE_BATCH)
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      )
    }
  }

  return {
    async put(key, source, contentType) {
      assertStorageKey(key)
      const body = source instanceof Readable ? source : fs.createReadStream(source.file)
      try {
        await new Upload({
          client,
          params: {
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
            Metadata: { v: newVersion() },
          },
          partSize: PART_BYTES,
          queueSize: PARTS_IN_FLIGHT,
        }).done()
      } finally {
        if (!(source instanceof Readable)) await fsp.rm(source.file, { force: true }).catch(() => {})
      }
      return headAfterWrite(key)
    },

    async get(key, { range, version } = {}) {
      assertStorageKey(key)
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        )
        const object: StoredObject = {
          size: Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1] ?? out.ContentLength ?? 0),
          modified: out.LastModified ?? new Date(0),
          version: versionOf(out),
        }
        const body = out.Body as Readable
        if (version !== undefined && object.version !== version) {
          body.destroy()
          return null
        }
        return { ...object, body }
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },

    head,

    delete: remove,

    async move(from, to, contentType) {
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: assertStorageKey(to),
          CopySource: `${bucket}/${encodeURIComponent(assertStorageKey(from)).replace(/%2F/g, '/')}`,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
          Metadata: { v: newVersion() },
        }),
      )
      await remove([from])
      return headAfterWrite(to)
    },

    async *list(prefix) {
      let token: string | undefined
      do {
        const out = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        )
        for (const item of out.Contents ?? []) {
          if (item.Key) yield { key: item.Key, modified: item.LastModified ?? new Date(0) }
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined
      } while (token)
    },
  }
}
