/** Content checks of an upload as it streams (size, type by its bytes) and the re-encoding of photos. */
import fsp from 'node:fs/promises'
import { Transform, type TransformCallback } from 'node:stream'
import type Sharp from 'sharp'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES, type MediaType } from '#app/constants.ts'
import {
  PHOTO_MAX_WIDTH,
  PHOTO_SRCSET_WIDTHS,
  PHOTO_TYPE_MESSAGE,
  sizeMessage,
  SNIFF_BYTES,
  sniffMedia,
  typeMessage,
  type SniffedType,
} from '#app/utils/media-types.ts'
import { AppError } from '#app/utils/app-error.ts'
import { lazyRequire } from '../platform/lazy-require.server.ts'

let loadedSharp: typeof Sharp | undefined

/** sharp, loaded at the first image handled. */
export function sharp() {
  if (!loadedSharp) {
    loadedSharp = lazyRequire('sharp') as typeof Sharp
    // libvips' operation cache only helps when the same image is processed repeatedly; uploads are all different.
    loadedSharp.cache(false)
  }
  return loadedSharp
}

/** Decoding cost grows with pixels, not bytes: a 5 MB PNG can claim 400 megapixels. */
export const PHOTO_MAX_PIXELS = 40_000_000

export function maxBytesFor(kind: MediaType) {
  return kind === 'photo' ? PHOTO_MAX_BYTES : VIDEO_MAX_BYTES
}

function photoEncodeError(error: unknown) {
  const message = error instanceof Error ? error.message : ''
  if (/pixel limit/i.test(message)) {
    return new AppError('The image is too large; use a photo of at most 40 megapixels', 'invalid')
  }
  return new AppError(PHOTO_TYPE_MESSAGE, 'invalid')
}

/** Each of a photo's WebP files: its width and quality. */
const PHOTO_ENCODINGS = [
  { width: PHOTO_MAX_WIDTH, quality: 82 },
  ...PHOTO_SRCSET_WIDTHS.map((width) => ({ width, quality: 78 })),
]

/** A photo's WebP files in memory, in the order of {@link PHOTO_ENCODINGS}; a photo libvips cannot read is refused as invalid. */
async function encodedPhoto(inputPath: string) {
  try {
    const image = sharp()(inputPath, {
      autoOrient: true,
      failOn: 'error',
      limitInputPixels: PHOTO_MAX_PIXELS,
    })
    return await Promise.all(
      PHOTO_ENCODINGS.map(({ width, quality }) =>
        image.clone().resize({ width, withoutEnlargement: true }).webp({ quality }).toBuffer(),
      ),
    )
  } catch (error) {
    throw photoEncodeError(error)
  }
}

/**
 * Auto-rotates and re-encodes a photo as WebP (all metadata, EXIF and GPS included, is dropped): `<stem>.webp` at
 * most {@link PHOTO_MAX_WIDTH} wide plus `<stem>-480w.webp` and `<stem>-960w.webp`. Never enlarges, so a small
 * photo's copies are simply its own size. An image libvips cannot decode is an invalid AppError. The files are written
 * by Node rather than by libvips, so a disk that refuses them fails with its own error code (ENOSPC, EROFS…), never
 * as a photo that could not be read; whatever was written is removed then.
 */
export async function encodePhoto(inputPath: string, outputStem: string) {
  const main = `${outputStem}.webp`
  const variants = PHOTO_SRCSET_WIDTHS.map((width) => ({ width, path: `${outputStem}-${width}w.webp` }))
  const outputs = [main, ...variants.map((v) => v.path)]
  const encoded = await encodedPhoto(inputPath)
  const written = await Promise.allSettled(
    outputs.map((file, i) => fsp.writeFile(file, encoded[i]!, { flag: 'wx', mode: 0o600 })),
  )
  const failed = written.find((result) => result.status === 'rejected')
  if (failed) {
    await Promise.all(outputs.map((p) => fsp.rm(p, { force: true }).catch(() => {})))
    throw failed.reason
  }
  return { main, variants, outputs }
}

/**
 * A pass-through that counts an upload's bytes and refuses it (AppError) as soon as it passes its kind's size
 * limit (too_large) or its first {@link SNIFF_BYTES} are not an accepted type of that kind (unsupported_media_type).
 */
export function checkedUpload(kind: MediaType) {
  const limit = maxBytesFor(kind)
  let size = 0
  let head: Buffer[] = []
  let headBytes = 0
  let type: SniffedType | undefined
  const check = () => {
    const sniffed = sniffMedia(Buffer.concat(head))
    head = []
    if (!sniffed || sniffed.kind !== kind) throw new AppError(typeMessage(kind), 'unsupported_media_type')
    type = sniffed
  }
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      size += chunk.length
      if (size > limit) return callback(new AppError(sizeMessage(kind), 'too_large'))
      if (!type) {
        head.push(chunk)
        headBytes += chunk.length
        if (headBytes >= SNIFF_BYTES) {
          try {
            check()
          } catch (error) {
            return callback(error as Error)
          }
        }
      }
      callback(null, chunk)
    },
    flush(callback: TransformCallback) {
      if (!type && size > 0) {
        try {
          check()
        } catch (error) {
          return callback(error as Error)
        }
      }
      callback()
    },
  })
  return { stream, size: () => size, type: () => type }
}
