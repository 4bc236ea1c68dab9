import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES } from '#app/constants.ts'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { MEDIA_LOCKED_MESSAGE } from '#app/models/ads/event-status.ts'
import { STORAGE_UPLOAD_EVENT_MESSAGE } from '#app/models/ads/storage-upload-schema.ts'
import { action as uploadImage } from '#app/routes/api.file-storage.upload-image.ts'
import { action as uploadVideo } from '#app/routes/api.file-storage.upload-video.ts'
import { loader as mediaLoader } from '#app/routes/api.media.$filename.ts'
import { action as testUpload } from '#app/routes/api.test-upload.ts'
import { action as uploadPage } from '#app/routes/file-storage-test.tsx'
import { loader as uploadsLoader } from '#app/routes/uploads.$filename.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { mediaFileName, photoSrcSet } from '#app/utils/media-types.ts'
import { deleteStoredMedia, mediaDate, mediaStorage } from '#app/services/media/media.server.ts'
import { readStored, stagedKeys, storedExists } from '#tests/support/media-storage.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { mp4Bytes, streamedMultipart, webmBytes, type StreamedPart } from '#tests/support/media.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `media-it-${process.pid}-${Date.now().toString(36)}`)
const mediaDir = path.join(dataDir, 'media')
const tmpDir = path.join(mediaDir, 'tmp')

let owner: Business
let other: Business
let ownerCookie: string
let otherCookie: string
let adminCookie: string
let clinicianCookie: string
let ownEventID: number
let ownEventDate: string
let otherEventID: number

async function insertEvent(businessID: number) {
  const [row] = await db
    .insert(events)
    .values({ businessID, eventTitle: 'Spring Concert', eventDescription: 'Live music in the park' })
    .returning()
  return row!
}

beforeAll(async () => {
  process.env.DATA_DIR = dataDir
  resetEnvCache()
  owner = await insertBusiness(db)
  other = await insertBusiness(db)
  ownerCookie = await sessionCookieFor({ business: owner })
  otherCookie = await sessionCookieFor({ business: other })
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
  const own = await insertEvent(owner.businessID)
  ownEventID = own.eventID
  ownEventDate = mediaDate(own.createdDate)
  otherEventID = (await insertEvent(other.businessID)).eventID
})

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

type Part = [name: string, value: string | Blob, filename?: string]

function form(parts: Part[]) {
  const data = new FormData()
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') data.append(name, value)
    else data.append(name, value, filename)
  }
  return data
}

function file(bytes: Uint8Array, type = 'application/octet-stream') {
  return new Blob([new Uint8Array(bytes)], { type })
}

/** The upload form of a small photo (a.jpg) for the event `eventID`. */
async function photoForm(eventID: number | string) {
  return form([
    ['image', file(await exifJpeg(), 'image/jpeg'), 'a.jpg'],
    ['eventID', String(eventID)],
  ])
}

function post(
  handler: Parameters<typeof callRoute>[0],
  url: string,
  body: FormData,
  cookie: string | null = ownerCookie,
) {
  return callRoute(handler, url, { method: 'POST', body, headers: cookie ? { Cookie: cookie } : {} })
}

function postStream(handler: typeof uploadImage, url: string, parts: StreamedPart[]) {
  const { body, contentType, length } = streamedMultipart(parts)
  return callRoute(handler, url, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { Cookie: ownerCookie, 'Content-Type': contentType, 'Content-Length': String(length) },
  } as RequestInit)
}

/** A media request by the owner of the event (their draft's files are theirs to see), unless `as` says who. */
function getMedia(
  name: string,
  headers: Record<string, string> = {},
  method = 'GET',
  loader = mediaLoader,
  as: string | null = ownerCookie,
) {
  const [filename = ''] = name.split('?')
  return callRoute(loader, `/api/media/${name}`, {
    method,
    headers: as ? { Cookie: as, ...headers } : headers,
    params: { filename },
  })
}

/** The same request from someone else: `as` is their cookie, null for a visitor who is not signed in. */
function getMediaAs(as: string | null, name: string, headers: Record<string, string> = {}) {
  return getMedia(name, headers, 'GET', mediaLoader, as)
}

/** Status and headers only: the body is cancelled so its file is closed. */
async function headOf(response: Promise<Response>) {
  const res = await response
  await res.body?.cancel()
  return res
}

/** Upload scratch files on this server and files staged in storage that nothing stored or discarded. */
async function tmpFiles() {
  const scratch = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []
  const staged = (await stagedKeys()).map((key) => key.slice('tmp/'.length))
  return [...new Set([...scratch, ...staged])]
}

async function exifJpeg(width = 400, height = 200) {
  return sharp({ create: { width, height, channels: 3, background: '#c03030' } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Copyright: 'private-owner-name', Make: 'PhoneCam' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '40/1 26/1 46/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '79/1 58/1 56/1',
      },
    })
    .jpeg()
    .toBuffer()
}

async function jpegOfSize(size: number) {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#208040' } })
    .jpeg()
    .toBuffer()
  const padded = Buffer.alloc(size)
  jpeg.copy(padded)
  return padded
}

describe('POST /api/file-storage/upload-image', () => {
  test('stores the photo as WebP with EXIF and GPS stripped, rotated upright, with srcset copies', async () => {
    const jpeg = await exifJpeg()
    expect((await sharp(jpeg).metadata()).exif?.toString('latin1')).toContain('private-owner-name')

    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(jpeg, 'image/jpeg'), 'holiday.jpg'],
        ['eventID', String(ownEventID)],
        ['createdDate', '1999-01-01'],
      ]),
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as { publicUrl: string; error: null }
    const name = `${ownEventDate}_${ownEventID}.webp`
    expect(body.error).toBeNull()
    expect(body.publicUrl).toMatch(new RegExp(`^/api/media/${name}\\?v=[0-9a-z]+$`))

    const key = `images/${ownEventDate.slice(0, 7)}/${name}`
    const saved = (await readStored(key))!
    const meta = await sharp(saved).metadata()
    expect(meta.format).toBe('webp')
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    expect([meta.width, meta.height]).toEqual([200, 400])
    expect(saved.toString('latin1')).not.toContain('private-owner-name')
    for (const width of [480, 960]) {
      expect(await storedExists(key.replace('.webp', `-${width}w.webp`))).toBe(true)
    }
    expect(await tmpFiles()).toEqual([])

    const served = await getMedia(body.publicUrl.replace('/api/media/', ''))
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('image/webp')
    // An unpaid draft's photo is its owner's alone: no cache may keep it.
    expect(served.headers.get('Cache-Control')).toBe('private, no-store')
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(served.headers.get('Content-Length')).toBe(String(saved.length))
    expect(Buffer.from(await served.arrayBuffer()).equals(saved)).toBe(true)

    for (const candidate of photoSrcSet(body.publicUrl).split(', ')) {
      const url = candidate.split(' ')[0]!.replace('/api/media/', '')
      expect((await headOf(getMedia(url))).status).toBe(200)
    }
  })

  test('a photo of exactly 5 MB is accepted', async () => {
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(await jpegOfSize(PHOTO_MAX_BYTES)), 'exact.jpg'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(200)
    expect(await tmpFiles()).toEqual([])
  })

  test('5 MB + 1 byte is refused with the spec message and nothing is left on disk', async () => {
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['eventID', String(ownEventID)],
        ['image', file(await jpegOfSize(PHOTO_MAX_BYTES + 1)), 'big.jpg'],
      ]),
    )
    expect(res.status).toBe(413)
    const message = 'File size must be less than 5MB'
    expect(await res.json()).toEqual({ publicUrl: null, error: message, message })
    expect(await tmpFiles()).toEqual([])
  })

  test('an executable renamed photo.jpg is refused by its bytes', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(10_000, 7)])
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(elf, 'image/jpeg'), 'photo.jpg'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(415)
    expect(await res.json()).toMatchObject({ publicUrl: null, error: 'Please select an image file' })
    expect(await tmpFiles()).toEqual([])
  })

  test('a JPEG header that does not decode is refused', async () => {
    const fake = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      Buffer.from('JFIF\0'),
      Buffer.alloc(5000, 0x41),
    ])
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(fake, 'image/jpeg'), 'photo.jpg'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'Please select an image file' })
    expect(await tmpFiles()).toEqual([])
  })

  test('a GIF/script polyglot is refused', async () => {
    const polyglot = Buffer.concat([
      Buffer.from('GIF89a/*\x01\x00\x00\x00\x00*/=alert(1)//', 'latin1'),
      Buffer.alloc(100),
    ])
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(polyglot, 'image/gif'), 'x.gif'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(415)
  })

  test('a video sent as the image is refused', async () => {
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(webmBytes(), 'image/png'), 'x.png'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(415)
    expect(await res.json()).toMatchObject({ error: 'Please select an image file' })
  })

  test('an empty file input counts as no file', async () => {
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['image', file(new Uint8Array(0)), ''],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'Please select an image file' })
  })

  test('signed out: 401, nothing stored', async () => {
    const res = await post(uploadImage, '/api/file-storage/upload-image', await photoForm(ownEventID), null)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ publicUrl: null, error: 'Please sign in', message: 'Please sign in' })
  })

  test("another business's event: 403 and the staged file is removed", async () => {
    const res = await post(uploadImage, '/api/file-storage/upload-image', await photoForm(otherEventID))
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ publicUrl: null })
    expect(await tmpFiles()).toEqual([])
    expect(
      await storedExists(`images/${ownEventDate.slice(0, 7)}/${ownEventDate}_${otherEventID}.webp`),
    ).toBe(false)
  })

  test.each(['', 'abc', '0', '-1', '1.5', '99999999999'])('eventID %j is a 400', async (eventID) => {
    const res = await post(uploadImage, '/api/file-storage/upload-image', await photoForm(eventID))
    expect(res.status).toBe(400)
    expect(await tmpFiles()).toEqual([])
  })

  test('a body that is not multipart is a 400', async () => {
    const res = await callRoute(uploadImage, '/api/file-storage/upload-image', {
      method: 'POST',
      body: JSON.stringify({ eventID: ownEventID }),
      headers: { Cookie: ownerCookie, 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ publicUrl: null, error: expect.stringMatching(/multipart/) })
  })

  test('a truncated multipart body is a 400 and leaves nothing behind', async () => {
    const boundary = 'xyz123'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
    const body = Buffer.concat([Buffer.from(head), await exifJpeg()])
    const res = await callRoute(uploadImage, '/api/file-storage/upload-image', {
      method: 'POST',
      body,
      headers: { Cookie: ownerCookie, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(res.status).toBe(400)
    expect(await tmpFiles()).toEqual([])
  })

  test('too many fields is refused', async () => {
    const parts: Part[] = Array.from({ length: 40 }, (_, i) => [`f${i}`, 'x'])
    const res = await post(uploadImage, '/api/file-storage/upload-image', form(parts))
    expect(res.status).toBe(413)
  })

  test('an unexpected file field is refused', async () => {
    const res = await post(
      uploadImage,
      '/api/file-storage/upload-image',
      form([
        ['other', file(await exifJpeg(), 'image/jpeg'), 'a.jpg'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(400)
    expect(await tmpFiles()).toEqual([])
  })
})

describe('POST /api/file-storage/upload-video and serving with ranges', () => {
  let videoName = ''
  let video: Buffer

  beforeAll(async () => {
    video = Buffer.concat([
      webmBytes('webm', 0),
      Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251)),
    ])
    const res = await post(
      uploadVideo,
      '/api/file-storage/upload-video',
      form([
        ['video', file(video, 'video/webm'), 'clip.webm'],
        ['eventID', String(ownEventID)],
        ['createdDate', ownEventDate],
      ]),
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as { publicUrl: string; error: null }
    videoName = `${ownEventDate}_${ownEventID}.webm`
    expect(body).toEqual({
      publicUrl: expect.stringMatching(new RegExp(`^/api/media/${videoName}\\?v=`)),
      error: null,
    })
  })

  test('the stored file is the upload, byte for byte, in videos/yyyy-mm', async () => {
    const saved = (await readStored(`videos/${ownEventDate.slice(0, 7)}/${videoName}`))!
    expect(saved.equals(video)).toBe(true)
  })

  test('whole file', async () => {
    const res = await getMedia(videoName)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('video/webm')
    expect(res.headers.get('Accept-Ranges')).toBe('bytes')
    expect(res.headers.get('Content-Length')).toBe(String(video.length))
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    expect(res.headers.get('ETag')).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/)
    expect(Buffer.from(await res.arrayBuffer()).equals(video)).toBe(true)
  })

  test.each([
    ['bytes=0-99', 0, 99],
    ['bytes=1000-', 1000, -1],
    ['bytes=-50', -50, -1],
  ])('Range %s → 206 with that slice', async (range, start, end) => {
    const from = start < 0 ? video.length + start : start
    const to = end < 0 ? video.length - 1 : end
    const res = await getMedia(videoName, { Range: range })
    expect(res.status).toBe(206)
    expect(res.headers.get('Content-Range')).toBe(`bytes ${from}-${to}/${video.length}`)
    expect(res.headers.get('Content-Length')).toBe(String(to - from + 1))
    expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(from, to + 1))).toBe(true)
  })

  test('an unsatisfiable range is a 416', async () => {
    const res = await getMedia(videoName, { Range: `bytes=${video.length}-` })
    expect(res.status).toBe(416)
    expect(res.headers.get('Content-Range')).toBe(`bytes */${video.length}`)
  })

  test('several ranges, or If-Range with an old ETag, get the whole file', async () => {
    expect((await headOf(getMedia(videoName, { Range: 'bytes=0-1,5-9' }))).status).toBe(200)
    expect((await headOf(getMedia(videoName, { Range: 'bytes=0-1', 'If-Range': '"old"' }))).status).toBe(200)
  })

  test('a matching If-None-Match is a 304 with no body', async () => {
    const etag = (await headOf(getMedia(videoName))).headers.get('ETag')!
    const res = await getMedia(videoName, { 'If-None-Match': etag })
    expect(res.status).toBe(304)
    expect(res.headers.get('ETag')).toBe(etag)
    expect(await res.text()).toBe('')
    expect((await headOf(getMedia(videoName, { 'If-None-Match': '"something-else"' }))).status).toBe(200)
    expect((await getMedia(videoName, { 'If-None-Match': `W/${etag}` })).status).toBe(304)
  })

  test('HEAD gives the headers and no body', async () => {
    const res = await getMedia(videoName, {}, 'HEAD')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Length')).toBe(String(video.length))
    expect(res.body).toBeNull()
    const partial = await getMedia(videoName, { Range: 'bytes=0-9' }, 'HEAD')
    expect(partial.status).toBe(206)
    expect(partial.headers.get('Content-Length')).toBe('10')
  })

  test('once the client has gone, the file is no longer read', async () => {
    const controller = new AbortController()
    controller.abort()
    const res = await callRoute(mediaLoader, `/api/media/${videoName}`, {
      params: { filename: videoName },
      headers: { Cookie: ownerCookie },
      signal: controller.signal,
    })
    expect(res.status).toBe(200)
    expect((await res.arrayBuffer()).byteLength).toBeLessThan(video.length)
  })

  test('/uploads/{filename} serves the same file', async () => {
    const res = await getMedia(videoName, { Range: 'bytes=0-3' }, 'GET', uploadsLoader)
    expect(res.status).toBe(206)
    expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(0, 4))).toBe(true)
  })

  test('an MP4 replaces nothing else and is served as video/mp4', async () => {
    const res = await post(
      uploadVideo,
      '/api/file-storage/upload-video',
      form([
        ['video', file(mp4Bytes('isom', ['isom', 'avc1'], 5000)), 'clip.mov'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(200)
    const served = await headOf(getMedia(`${ownEventDate}_${ownEventID}.mp4`))
    expect(served.headers.get('Content-Type')).toBe('video/mp4')
    expect((await headOf(getMedia(videoName))).status).toBe(200)
  })

  test('a Windows executable named video.mp4 is refused', async () => {
    const mz = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(20_000, 1)])
    const res = await post(
      uploadVideo,
      '/api/file-storage/upload-video',
      form([
        ['video', file(mz, 'video/mp4'), 'video.mp4'],
        ['eventID', String(ownEventID)],
      ]),
    )
    expect(res.status).toBe(415)
    expect(await res.json()).toMatchObject({ error: 'Please select a video file' })
    expect(await tmpFiles()).toEqual([])
  })

  test('a video of 50 MB + 1 byte is refused while streaming, leaving nothing behind', async () => {
    const res = await postStream(uploadVideo, '/api/file-storage/upload-video', [
      { name: 'eventID', value: String(ownEventID) },
      {
        name: 'video',
        filename: 'huge.webm',
        contentType: 'video/webm',
        value: webmBytes(),
        size: VIDEO_MAX_BYTES + 1,
      },
    ])
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ error: 'Video file must be under 50MB' })
    expect(await tmpFiles()).toEqual([])
  })

  test('deleteStoredMedia removes the files', async () => {
    await deleteStoredMedia([`/api/media/${ownEventDate}_${ownEventID}.mp4?v=1`])
    expect((await getMedia(`${ownEventDate}_${ownEventID}.mp4`)).status).toBe(404)
  })
})

describe('POST /api/test-upload', () => {
  test('stores under the fixed sample date with the business id', async () => {
    const res = await post(
      testUpload,
      '/api/test-upload',
      form([['image', file(await exifJpeg(), 'image/jpeg'), 'a.jpg']]),
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as { message: string; publicUrl: string }
    expect(body.publicUrl).toMatch(new RegExp(`^/api/media/2000-01-01_${owner.businessID}\\.webp\\?v=`))
    expect(body.message).toMatch(/.+/)
    expect(await storedExists(`images/2000-01/2000-01-01_${owner.businessID}.webp`)).toBe(true)
    // A sample upload is the business's own; the name is rewritten by every test upload and never cached.
    const bare = await headOf(getMedia(`2000-01-01_${owner.businessID}.webp`))
    expect(bare.status).toBe(200)
    expect(bare.headers.get('Cache-Control')).toBe('private, no-store')
    expect((await headOf(getMediaAs(null, `2000-01-01_${owner.businessID}.webp`))).status).toBe(404)
    expect((await headOf(getMediaAs(otherCookie, `2000-01-01_${owner.businessID}.webp`))).status).toBe(404)
  })

  test('a video of exactly 50 MB is accepted (streamed)', async () => {
    const res = await postStream(testUpload, '/api/test-upload', [
      {
        name: 'video',
        filename: 'big.webm',
        contentType: 'video/webm',
        value: webmBytes(),
        size: VIDEO_MAX_BYTES,
      },
    ])
    expect(res.status).toBe(200)
    const key = `videos/2000-01/2000-01-01_${owner.businessID}.webm`
    expect((await mediaStorage().head(key))?.size).toBe(VIDEO_MAX_BYTES)
    expect(await tmpFiles()).toEqual([])
    await deleteStoredMedia([key])
  })

  test('no file, or two files, is a 400 with a message', async () => {
    const none = await post(testUpload, '/api/test-upload', form([['note', 'hello']]))
    expect(none.status).toBe(400)
    expect(await none.json()).toEqual({ message: expect.any(String) })
    const both = await post(
      testUpload,
      '/api/test-upload',
      form([
        ['image', file(await exifJpeg(), 'image/jpeg'), 'a.jpg'],
        ['video', file(webmBytes(), 'video/webm'), 'v.webm'],
      ]),
    )
    expect(both.status).toBe(400)
    expect(await tmpFiles()).toEqual([])
  })

  test('signed out: 401 {message}', async () => {
    const res = await post(
      testUpload,
      '/api/test-upload',
      form([['image', file(await exifJpeg()), 'a.jpg']]),
      null,
    )
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Please sign in' })
  })

  test('a wrong type answers {message}', async () => {
    const res = await post(testUpload, '/api/test-upload', form([['video', file(await exifJpeg()), 'a.mp4']]))
    expect(res.status).toBe(415)
    expect(await res.json()).toEqual({ message: 'Please select a video file' })
    expect(await tmpFiles()).toEqual([])
  })
})

describe('POST /file-storage-test (the upload test page without JavaScript)', () => {
  test("a refusal comes back in the form's reply at its field; a stored file as its URL", async () => {
    const badEvent = await post(uploadPage, '/file-storage-test?kind=photo', await photoForm('abc'))
    expect(badEvent.status).toBe(400)
    expect(await badEvent.json()).toMatchObject({
      kind: 'photo',
      publicUrl: null,
      result: { initialValue: { eventID: 'abc' }, error: { eventID: [STORAGE_UPLOAD_EVENT_MESSAGE] } },
    })

    const wrongType = await post(
      uploadPage,
      '/file-storage-test?kind=video',
      form([
        ['eventID', String(ownEventID)],
        ['video', file(await exifJpeg()), 'a.mp4'],
      ]),
    )
    expect(wrongType.status).toBe(415)
    expect(await wrongType.json()).toMatchObject({
      kind: 'video',
      result: { error: { video: ['Please select a video file'] } },
    })

    const stored = await post(uploadPage, '/file-storage-test?kind=photo', await photoForm(ownEventID))
    expect(stored.status).toBe(200)
    expect(await stored.json()).toEqual({
      kind: 'photo',
      result: null,
      publicUrl: expect.stringMatching(new RegExp(`^/api/media/${ownEventDate}_${ownEventID}\\.webp\\?v=`)),
    })
    expect(await tmpFiles()).toEqual([])
  })
})

describe('GET /api/media/{filename} refuses anything else', () => {
  test.each([
    '..',
    '../../pg/PG_VERSION',
    '..%2F..%2Fpg%2FPG_VERSION',
    '%2e%2e%2f%2e%2e%2fpg',
    'images%2F2000-01%2F2000-01-01_1.webp',
    '2000-01-01_1.webp\0.png',
    '/etc/passwd',
    'tmp',
    '2000-01-01_1.exe',
    '2031-01-01_1.webp',
  ])('%j → 404 JSON', async (name) => {
    const res = await callRoute(mediaLoader, '/api/media/x', { params: { filename: name } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Media not found' })
  })

  test('a missing filename param is a 404', async () => {
    const res = await callRoute(mediaLoader, '/api/media/', {})
    expect(res.status).toBe(404)
  })
})

const today = mediaDate(new Date())
const day = (n: number) => addDaysIso(today, n)

/** Where an ad stands; only an unpaid one may have its media replaced, only a live one is public. */
const STATES = {
  'an unpaid draft': { eventStatus: 'pending', paymentStatus: 'pending', showAdOnDates: [day(3)] },
  'a draft whose payment failed': {
    eventStatus: 'pending',
    paymentStatus: 'failed',
    showAdOnDates: [day(3)],
  },
  'a paid ad awaiting review': { eventStatus: 'pending', paymentStatus: 'paid', showAdOnDates: [day(3)] },
  'a live ad': { eventStatus: 'approved', paymentStatus: 'paid', showAdOnDates: [day(3)] },
  'an ended ad': { eventStatus: 'approved', paymentStatus: 'paid', showAdOnDates: [day(-3)] },
  'a rejected, refunded ad': { eventStatus: 'rejected', paymentStatus: 'refunded', showAdOnDates: [day(3)] },
} as const
type State = keyof typeof STATES

/** A new event of the owner with a photo uploaded while it was unpaid, then moved to `state`. */
async function adWithPhoto(state: State) {
  const event = await insertEvent(owner.businessID)
  const res = await post(uploadImage, '/api/file-storage/upload-image', await photoForm(event.eventID))
  expect(res.status).toBe(200)
  const { publicUrl } = (await res.json()) as { publicUrl: string }
  const { showAdOnDates, ...statuses } = STATES[state]
  await db
    .update(events)
    .set({ ...statuses, showAdOnDates: [...showAdOnDates], ...showDateBounds(null, showAdOnDates) })
    .where(eq(events.eventID, event.eventID))
  const name = mediaFileName(publicUrl)
  const date = mediaDate(event.createdDate)
  return { eventID: event.eventID, publicUrl, name, key: `images/${date.slice(0, 7)}/${name}`, date }
}

async function eventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row
}

describe("a paid ad's media is not replaced by the upload endpoints", () => {
  test.each(['a paid ad awaiting review', 'a live ad', 'an ended ad', 'a rejected, refunded ad'] as const)(
    '%s: 409 with a JSON message; the file and the row stay as they were',
    async (state) => {
      const ad = await adWithPhoto(state)
      const before = (await readStored(ad.key))!
      const rowBefore = await eventRow(ad.eventID)

      const photo = await post(
        uploadImage,
        '/api/file-storage/upload-image',
        form([
          ['image', file(await jpegOfSize(2048), 'image/jpeg'), 'new.jpg'],
          ['eventID', String(ad.eventID)],
        ]),
      )
      expect(photo.status).toBe(409)
      expect(photo.headers.get('Content-Type')).toMatch(/^application\/json/)
      expect(await photo.json()).toEqual({
        publicUrl: null,
        error: MEDIA_LOCKED_MESSAGE,
        message: MEDIA_LOCKED_MESSAGE,
      })

      const video = await post(
        uploadVideo,
        '/api/file-storage/upload-video',
        form([
          ['video', file(webmBytes(), 'video/webm'), 'new.webm'],
          ['eventID', String(ad.eventID)],
        ]),
      )
      expect(video.status).toBe(409)
      expect(((await video.json()) as { message: string }).message).toBe(MEDIA_LOCKED_MESSAGE)

      expect((await readStored(ad.key))!.equals(before)).toBe(true)
      expect(await storedExists(`videos/${ad.date.slice(0, 7)}/${ad.date}_${ad.eventID}.webm`)).toBe(false)
      expect(await eventRow(ad.eventID)).toEqual(rowBefore)
      expect(await tmpFiles()).toEqual([])
    },
  )
})

describe('GET /api/media/{file}: everyone only when the ad is live', () => {
  test('an unpaid draft: its owner and administrators get it, never cached; everyone else 404', async () => {
    const ad = await adWithPhoto('an unpaid draft')
    const variant = ad.name.replace('.webp', '-480w.webp')
    for (const who of [null, otherCookie, clinicianCookie]) {
      for (const name of [ad.name, `${ad.name}?v=1`, variant]) {
        const res = await getMediaAs(who, name)
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({ message: 'Media not found' })
        expect(res.headers.get('Cache-Control')).toBe('private, no-store')
      }
      const fallback = await getMedia(ad.name, {}, 'GET', uploadsLoader, who)
      expect(fallback.status).toBe(404)
      await fallback.body?.cancel()
    }
    for (const who of [ownerCookie, adminCookie]) {
      for (const name of [`${ad.name}?v=1`, variant]) {
        const res = await headOf(getMediaAs(who, name))
        expect(res.status).toBe(200)
        expect(res.headers.get('Cache-Control')).toBe('private, no-store')
      }
      const partial = await getMediaAs(who, ad.name, { Range: 'bytes=0-9' })
      expect(partial.status).toBe(206)
      expect((await partial.arrayBuffer()).byteLength).toBe(10)
    }
  })

  test('a paid ad awaiting review: the administrator reviewing it and its owner get it; a visitor 404', async () => {
    const ad = await adWithPhoto('a paid ad awaiting review')
    expect((await headOf(getMediaAs(null, ad.name))).status).toBe(404)
    expect((await headOf(getMediaAs(adminCookie, ad.name))).status).toBe(200)
    expect((await headOf(getMediaAs(ownerCookie, ad.name))).status).toBe(200)
  })

  test('a live ad: everyone, with the shared caching and ranges', async () => {
    const ad = await adWithPhoto('a live ad')
    const versioned = await getMediaAs(null, ad.publicUrl.replace('/api/media/', ''))
    expect(versioned.status).toBe(200)
    expect(versioned.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(Buffer.from(await versioned.arrayBuffer()).equals((await readStored(ad.key))!)).toBe(true)
    const bare = await headOf(getMediaAs(null, ad.name))
    expect(bare.headers.get('Cache-Control')).toBe('public, max-age=3600')
    const size = Number(bare.headers.get('Content-Length'))
    const partial = await getMediaAs(null, ad.name, { Range: 'bytes=5-' })
    expect(partial.status).toBe(206)
    expect(partial.headers.get('Content-Range')).toBe(`bytes 5-${size - 1}/${size}`)
    await partial.body?.cancel()
    expect((await headOf(getMediaAs(null, ad.name.replace('.webp', '-960w.webp')))).status).toBe(200)
  })

  test('an ended or rejected ad is no longer public', async () => {
    for (const state of ['an ended ad', 'a rejected, refunded ad'] as const) {
      const ad = await adWithPhoto(state)
      expect((await headOf(getMediaAs(null, ad.name))).status).toBe(404)
      expect((await headOf(getMediaAs(ownerCookie, ad.name))).status).toBe(200)
    }
  })

  test('an id beyond the database integer range, or of no event, is a plain 404', async () => {
    for (const name of [
      '2024-01-01_99999999999.webp',
      '2024-01-01_2147483647.webp',
      '2000-01-01_99999999999.webp',
    ]) {
      const res = await getMediaAs(adminCookie, name)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: 'Media not found' })
    }
  })
})

test('stored media live in the configured store only: the bucket when S3_BUCKET is set, else the folder', async () => {
  const key = `images/${ownEventDate.slice(0, 7)}/${ownEventDate}_${ownEventID}.webp`
  expect(await storedExists(key)).toBe(true)
  expect(fs.existsSync(path.join(mediaDir, key))).toBe(!process.env.S3_BUCKET)
})
