import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { LINK_TEXT } from '#app/models/ads/link-address-rules.ts'
import {
  fetchLinkDocument,
  fetchLinkPhoto,
  LINK_DEADLINE_MS,
  LINK_PAGE_MAX_BYTES,
  linkDeadline,
} from '#app/services/ads/fetch-from-link.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { startEventPageServer, type EventPageServer } from '#tests/support/event-pages.ts'

/** The link's refusal message, or 'read' when it was read. */
async function outcome(read: Promise<unknown>) {
  try {
    await read
    return 'read'
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    expect(error.kind).toBe('invalid')
    return error.message
  }
}

const fetchDocument = (address: string, deadlineMs = LINK_DEADLINE_MS) =>
  fetchLinkDocument(address, { signal: linkDeadline(deadlineMs) })

function allowHosts(value: string | undefined) {
  if (value === undefined) delete process.env.LINK_FETCH_ALLOW_HOSTS
  else process.env.LINK_FETCH_ALLOW_HOSTS = value
  resetEnvCache()
}

let pages: EventPageServer

beforeAll(async () => {
  // Served on 127.0.0.1, linked as localhost: the allow-list names only `localhost`.
  pages = await startEventPageServer({ hostName: 'localhost' })
})
afterAll(() => pages.close())
afterEach(() => allowHosts(undefined))

describe('with the test server on the allow-list', () => {
  beforeAll(() => allowHosts('localhost'))
  afterAll(() => allowHosts(undefined))
  // afterEach of the file unsets it: set again for each case.
  const on = () => allowHosts('localhost')

  test('reads a page and an .ics file, told apart by their content', async () => {
    on()
    const page = await fetchDocument(`${pages.origin}/json-ld.html`)
    expect(page.kind).toBe('html')
    expect(page.text).toContain('Jazz on the River')
    const calendar = await fetchDocument(`${pages.origin}/event.ics`)
    expect(calendar.kind).toBe('icalendar')
    expect(calendar.text).toContain('Town Hall: Parks Plan')
  })

  test('follows up to 3 redirects, and refuses a 4th and a loop', async () => {
    on()
    const followed = await fetchDocument(`${pages.origin}/redirect/2`)
    expect(followed.url.pathname).toBe('/json-ld.html')
    expect(await outcome(fetchDocument(`${pages.origin}/redirect/3`))).toBe(LINK_TEXT.tooManyRedirects)
    expect(await outcome(fetchDocument(`${pages.origin}/loop-a`))).toBe(LINK_TEXT.redirectLoop)
  })

  test('a redirect to a private, loopback or metadata address, or to another scheme, is refused', async () => {
    on()
    const before = pages.hits.length
    expect(await outcome(fetchDocument(`${pages.origin}/to-private`))).toBe(LINK_TEXT.privateAddress)
    expect(await outcome(fetchDocument(`${pages.origin}/to-loopback`))).toBe(LINK_TEXT.privateAddress)
    expect(await outcome(fetchDocument(`${pages.origin}/to-metadata`))).toBe(LINK_TEXT.privateAddress)
    expect(await outcome(fetchDocument(`${pages.origin}/to-file`))).toBe(LINK_TEXT.scheme)
    // Only the first hop of each reached a server.
    expect(pages.hits.slice(before)).toEqual(['/to-private', '/to-loopback', '/to-metadata', '/to-file'])
  })

  test('a server too slow to send its page is cut at the deadline, whose default is 5 seconds', async () => {
    on()
    expect(LINK_DEADLINE_MS).toBe(5000)
    expect(await outcome(fetchDocument(`${pages.origin}/slow`, 300))).toBe(LINK_TEXT.slow)
    expect(await outcome(fetchDocument(`${pages.origin}/silent`, 300))).toBe(LINK_TEXT.slow)
  })

  test('a page over 2 MB is refused as it streams, and when it declares it', async () => {
    on()
    expect(LINK_PAGE_MAX_BYTES).toBe(2 * 1024 * 1024)
    expect(await outcome(fetchDocument(`${pages.origin}/huge`))).toBe(LINK_TEXT.tooLarge)
    expect(await outcome(fetchDocument(`${pages.origin}/huge-declared`))).toBe(LINK_TEXT.tooLarge)
  })

  test('content that is neither a page nor an .ics file, and an error status, are refused', async () => {
    on()
    expect(await outcome(fetchDocument(`${pages.origin}/binary`))).toBe(LINK_TEXT.notAnEventPage)
    expect(await outcome(fetchDocument(`${pages.origin}/gone`))).toBe(LINK_TEXT.status(404))
  })

  test('a photo is read when its bytes are an image, and refused when they are not', async () => {
    on()
    const photo = await fetchLinkPhoto(`${pages.origin}/photo.png`, { signal: linkDeadline() })
    expect(photo).toMatchObject({ mime: 'image/png', name: 'photo.png' })
    expect(photo.bytes.subarray(1, 4).toString()).toBe('PNG')
    // The upload's own check and message: a photo must be an image by its bytes, whatever its type says.
    const refused = await fetchLinkPhoto(`${pages.origin}/not-a-photo.png`, { signal: linkDeadline() }).catch(
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).kind).toBe('unsupported_media_type')
  })
})

describe('with the allow-list off', () => {
  test('the test server itself is refused: its port, and its loopback address on the usual ports', async () => {
    const before = pages.hits.length
    expect(await outcome(fetchDocument(`${pages.origin}/json-ld.html`))).toBe(LINK_TEXT.port)
    expect(await outcome(fetchDocument(`http://127.0.0.1:${pages.port}/json-ld.html`))).toBe(LINK_TEXT.port)
    for (const address of [
      'http://127.0.0.1/',
      'https://127.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f.0.0.1/',
      'http://2130706433/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://10.1.2.3/',
      'http://192.168.0.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
    ])
      expect(await outcome(fetchDocument(address)), address).toBe(LINK_TEXT.privateAddress)
    expect(pages.hits.slice(before)).toEqual([])
  })

  test('a host name that resolves to a private address is refused after the lookup, before connecting', async () => {
    // `localhost` is a name, not an address: only the resolver's answer (127.0.0.1) tells it is loopback.
    expect(await outcome(fetchDocument('http://localhost/json-ld.html'))).toBe(LINK_TEXT.privateAddress)
    expect(await outcome(fetchDocument('https://localhost:443/'))).toBe(LINK_TEXT.privateAddress)
  })

  test('other schemes and ports are refused before anything is sent', async () => {
    expect(await outcome(fetchDocument('ftp://example.com/event.ics'))).toBe(LINK_TEXT.scheme)
    expect(await outcome(fetchDocument('file:///etc/passwd'))).toBe(LINK_TEXT.scheme)
    expect(await outcome(fetchDocument('https://example.com:8443/event'))).toBe(LINK_TEXT.port)
    expect(await outcome(fetchDocument('http://user:secret@example.com/'))).toBe(LINK_TEXT.credentials)
  })

  test('the allow-list is refused with production rules', async () => {
    const { parseEnv } = await import('#app/services/platform/env.server.ts')
    expect(() =>
      parseEnv({
        APP_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        PUBLIC_URL: 'https://events.example.com',
        ALLOW_NO_IDENTITY_PROVIDER: 'true',
        LINK_FETCH_ALLOW_HOSTS: 'localhost',
      }),
    ).toThrow(/LINK_FETCH_ALLOW_HOSTS/)
    expect(parseEnv({ LINK_FETCH_ALLOW_HOSTS: ' localhost, 127.0.0.1 ' }).linkFetchAllowHosts).toEqual([
      'localhost',
      '127.0.0.1',
    ])
    expect(parseEnv({}).linkFetchAllowHosts).toEqual([])
  })
})
