/** Byte builders for media tests and the upload benchmark: headers of real formats, bodies generated as streams. */

const ascii = (text: string) => Buffer.from(text, 'latin1')

function u32(n: number) {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}

/** An ISO BMFF `ftyp` box with the given brands, then a `free` and an `mdat` box header. */
export function mp4Bytes(major = 'isom', compatible = ['isom', 'iso2', 'mp41'], payload = 64) {
  const ftypSize = 16 + compatible.length * 4
  return Buffer.concat([
    u32(ftypSize),
    ascii('ftyp'),
    ascii(major),
    u32(0x200),
    ...compatible.map(ascii),
    u32(8),
    ascii('free'),
    u32(8 + payload),
    ascii('mdat'),
    Buffer.alloc(payload, 0x11),
  ])
}

/** An EBML header with the given DocType (a WebM file starts this way), then a Segment id. */
export function webmBytes(docType = 'webm', payload = 64) {
  const element = (id: number[], value: Buffer) =>
    Buffer.concat([Buffer.from(id), Buffer.from([0x80 | value.length]), value])
  const body = Buffer.concat([
    element([0x42, 0x86], Buffer.from([1])),
    element([0x42, 0xf7], Buffer.from([1])),
    element([0x42, 0xf2], Buffer.from([4])),
    element([0x42, 0xf3], Buffer.from([8])),
    element([0x42, 0x82], ascii(docType)),
    element([0x42, 0x87], Buffer.from([4])),
    element([0x42, 0x85], Buffer.from([2])),
  ])
  return Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]),
    body,
    Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    Buffer.alloc(payload, 0x22),
  ])
}

/** A first Ogg page (beginning of stream) whose packet starts with `packet` (Theora's identification header). */
export function oggTheoraBytes(packet: Buffer = Buffer.concat([Buffer.from([0x80]), ascii('theora')])) {
  const body = Buffer.concat([packet, Buffer.alloc(42 - packet.length, 0)])
  return Buffer.concat([
    ascii('OggS'),
    Buffer.from([0, 0x02]),
    Buffer.alloc(8),
    u32(0x1234),
    u32(0),
    u32(0),
    Buffer.from([1, body.length]),
    body,
  ])
}

export interface StreamedPart {
  name: string
  /** Present for a file part. */
  filename?: string
  contentType?: string
  /** A text value, or the first bytes of a file. */
  value: string | Uint8Array
  /** For a file: pad with zero bytes up to this total size, generated chunk by chunk. */
  size?: number
}

const ZEROS = new Uint8Array(1024 * 1024)

/**
 * A multipart/form-data body generated as it is read, so tests and the benchmark can send 50 MB without holding
 * it: returns the stream, its Content-Type and exact length.
 */
export function streamedMultipart(parts: StreamedPart[]) {
  const boundary = `----eventshout${Math.random().toString(16).slice(2)}`
  const segments: Array<Uint8Array | { zeros: number }> = []
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : ''
    segments.push(ascii(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`))
    const value = typeof part.value === 'string' ? Buffer.from(part.value) : part.value
    segments.push(value)
    if (part.size !== undefined && part.size > value.length)
      segments.push({ zeros: part.size - value.length })
    segments.push(ascii('\r\n'))
  }
  segments.push(ascii(`--${boundary}--\r\n`))
  const length = segments.reduce((sum, s) => sum + ('zeros' in s ? s.zeros : s.length), 0)

  let index = 0
  let zerosLeft = -1
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const segment = segments[index]
      if (!segment) return controller.close()
      if ('zeros' in segment) {
        if (zerosLeft < 0) zerosLeft = segment.zeros
        const n = Math.min(zerosLeft, ZEROS.length)
        controller.enqueue(n === ZEROS.length ? ZEROS : ZEROS.subarray(0, n))
        zerosLeft -= n
        if (zerosLeft === 0) {
          zerosLeft = -1
          index++
        }
        return
      }
      controller.enqueue(segment)
      index++
    },
  })
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, length }
}
