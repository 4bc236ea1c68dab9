import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { SNIFF_BYTES, sniffMedia } from '#app/utils/media-types.ts'
import { encodePhoto } from '#app/services/media/media-content.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { mp4Bytes, oggTheoraBytes, webmBytes } from '#tests/support/media.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const ascii = (text: string) => Buffer.from(text, 'latin1')
const base = () => sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366cc' } })

let jpeg: Buffer
let png: Buffer
let gif: Buffer
let webp: Buffer

beforeAll(async () => {
  ;[jpeg, png, gif, webp] = await Promise.all([
    base().jpeg().toBuffer(),
    base().png().toBuffer(),
    base().gif().toBuffer(),
    base().webp().toBuffer(),
  ])
})

describe('accepted types, from the bytes alone', () => {
  test.each([
    ['JPEG', () => jpeg, 'image/jpeg', 'jpg'],
    ['PNG', () => png, 'image/png', 'png'],
    ['GIF', () => gif, 'image/gif', 'gif'],
    ['WebP', () => webp, 'image/webp', 'webp'],
  ])('%s is a photo', (_name, bytes, mime, ext) => {
    expect(sniffMedia(bytes())).toEqual({ kind: 'photo', mime, ext })
  })

  test.each([
    ['MP4 (isom)', () => mp4Bytes('isom'), 'video/mp4', 'mp4'],
    ['MP4 (mp42)', () => mp4Bytes('mp42'), 'video/mp4', 'mp4'],
    ['WebM', () => webmBytes(), 'video/webm', 'webm'],
    ['Ogg Theora', () => oggTheoraBytes(), 'video/ogg', 'ogv'],
  ])('%s is a video', (_name, bytes, mime, ext) => {
    expect(sniffMedia(bytes())).toEqual({ kind: 'video', mime, ext })
  })

  test('only the first SNIFF_BYTES matter', () => {
    const long = Buffer.concat([png, Buffer.alloc(SNIFF_BYTES), ascii('<script>alert(1)</script>')])
    expect(sniffMedia(long)?.mime).toBe('image/png')
  })
})

describe('refused', () => {
  test.each([
    ['empty', () => Buffer.alloc(0)],
    ['a few bytes', () => jpeg.subarray(0, 8)],
    [
      'ELF executable (renamed photo.jpg)',
      () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]),
    ],
    [
      'Windows executable (MZ)',
      () => Buffer.concat([ascii('MZ'), Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0]), Buffer.alloc(64)]),
    ],
    ['PDF', () => ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj << /Type /Catalog >> endobj')],
    ['ZIP', () => Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4, 20, 0, 0, 0]), Buffer.alloc(64)])],
    ['HTML', () => ascii('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>')],
    [
      'SVG (scriptable image)',
      () => ascii('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
    ],
    ['plain text', () => ascii('just some text that is long enough to sniff')],
    ['HEIC (ftyp, but an image)', () => mp4Bytes('heic', ['mif1', 'heic'])],
    ['AVIF (ftyp, but an image)', () => mp4Bytes('avif', ['mif1', 'miaf'])],
    ['ftyp with an unknown brand', () => mp4Bytes('zzzz', ['abcd'])],
    ['Matroska (EBML, DocType matroska)', () => webmBytes('matroska')],
    ['Ogg audio (Vorbis)', () => oggTheoraBytes(Buffer.concat([Buffer.from([1]), ascii('vorbis')]))],
    [
      'RIFF that is not WebP (WAV)',
      () => Buffer.concat([ascii('RIFF'), Buffer.alloc(4), ascii('WAVEfmt '), Buffer.alloc(32)]),
    ],
  ])('%s', (_name, bytes) => {
    expect(sniffMedia(bytes())).toBeNull()
  })

  test('a GIF header followed by script (GIF/JS polyglot)', () => {
    const polyglot = Buffer.concat([
      ascii('GIF89a'),
      ascii('/*'),
      ascii('\x01\x00\x00\x00\x00'),
      ascii('*/=alert(1)//'),
    ])
    expect(sniffMedia(polyglot)).toBeNull()
  })

  test('a GIF header followed by an HTML payload', () => {
    const polyglot = Buffer.concat([
      gif.subarray(0, 20),
      ascii('<script>fetch("/api/x")</script>'),
      gif.subarray(20),
    ])
    expect(sniffMedia(polyglot)).toBeNull()
  })

  test('a real JPEG carrying markup in its first bytes', () => {
    const comment = ascii('<html><script>alert(1)</script></html>')
    const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment])
    const polyglot = Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)])
    expect(sniffMedia(polyglot)).toBeNull()
  })

  test('a JPEG start-of-image followed by anything but a marker', () => {
    expect(
      sniffMedia(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), ascii('this is not a marker')])),
    ).toBeNull()
  })

  test('a PNG signature without its IHDR chunk', () => {
    expect(sniffMedia(Buffer.concat([png.subarray(0, 8), ascii('tEXtComment: nothing here')]))).toBeNull()
  })

  test('an MP4 ftyp box followed by something that is not a box', () => {
    const bytes = mp4Bytes('isom')
    const broken = Buffer.concat([
      bytes.subarray(0, 28),
      Buffer.from([0, 0, 0, 8]),
      Buffer.from([0, 1, 2, 3]),
    ])
    expect(sniffMedia(broken)).toBeNull()
  })
})

describe('a JPEG header that does not decode', () => {
  const dir = path.join(TMP_DIR, `media-sniff-${process.pid}`)

  beforeAll(() => {
    fs.mkdirSync(dir, { recursive: true })
    process.env.DATA_DIR = dir
    resetEnvCache()
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  test('passes the byte check but is refused when re-encoded, leaving nothing behind', async () => {
    const fake = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      ascii('JFIF\0'),
      Buffer.alloc(2000, 0x41),
    ])
    expect(sniffMedia(fake)?.mime).toBe('image/jpeg')
    const input = path.join(dir, 'fake.upload')
    fs.writeFileSync(input, fake)
    const error = await encodePhoto(input, path.join(dir, 'out')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ kind: 'invalid', message: 'Please select an image file' })
    expect(fs.readdirSync(dir)).toEqual(['fake.upload'])
  })

  test('a truncated JPEG is refused too', async () => {
    const input = path.join(dir, 'truncated.upload')
    const big = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer()
    fs.writeFileSync(input, big.subarray(0, big.length - 100))
    await expect(encodePhoto(input, path.join(dir, 'out2'))).rejects.toMatchObject({ kind: 'invalid' })
  })
})
