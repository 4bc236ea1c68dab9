import http from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BODY_MAX_BYTES, MULTIPART_BODY_MAX_BYTES } from '#app/constants.ts'
import { BUILD_TIMEOUT_MS } from '#tests/support/built-app.ts'
import { startRunningServer } from '#tests/support/running-server.ts'

/** Item by item against the running server: bodies are bounded before they are read, and no connection is spoiled. */

let base: URL
const agents: http.Agent[] = []

beforeAll(async () => {
  base = new URL(await startRunningServer())
}, BUILD_TIMEOUT_MS)

afterAll(() => agents.forEach((agent) => agent.destroy()))

const MiB = 1024 * 1024

interface Answer {
  status: number
  body: string
  headers: http.IncomingHttpHeaders
  reusedSocket: boolean
}

/**
 * Sends a request and resolves with the answer as soon as it is complete. `declaredBytes` with a smaller `body`
 * is a client still uploading when the server answers: the rest is never sent.
 */
function send(
  path: string,
  {
    method = 'POST',
    headers = {},
    body,
    declaredBytes,
    chunked = false,
    agent,
  }: {
    method?: string
    headers?: Record<string, string>
    body?: Buffer
    declaredBytes?: number
    chunked?: boolean
    agent?: http.Agent
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const allHeaders: Record<string, string> = { ...headers }
    if (body && !chunked) allHeaders['Content-Length'] = String(declaredBytes ?? body.length)
    const req = http.request(new URL(path, base), { method, headers: allHeaders, agent: agent ?? false })
    req.on('error', reject)
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          headers: res.headers,
          reusedSocket: req.reusedSocket,
        })
        // An upload cut short on purpose: drop the connection instead of sending the rest.
        if (declaredBytes !== undefined && body && declaredBytes > body.length) req.destroy()
      })
    })
    if (body) req.write(body)
    if (declaredBytes === undefined || !body || declaredBytes <= body.length) req.end()
  })
}

const json = (bytes: number) =>
  Buffer.from(JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(bytes) }))

describe('request bodies are bounded before they are read', () => {
  test.each(['/api/business/login', '/api/business', '/api/stripe/webhook'])(
    'a JSON post declaring 200 MiB to %s is refused at once with 413 and a JSON message',
    async (path) => {
      const answer = await send(path, {
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.alloc(64 * 1024, 'a'),
        declaredBytes: 200 * MiB,
      })
      expect(answer.status).toBe(413)
      // Answered although the client sent 64 KiB of the 200 MiB it declared: the body was never waited for.
      expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/too large/i) })
    },
  )

  test('a chunked JSON body (no Content-Length) is counted as it arrives and cut off past 1 MB with 413', async () => {
    const answer = await send('/api/business/login', {
      headers: { 'Content-Type': 'application/json' },
      body: json(BODY_MAX_BYTES + 1024),
      chunked: true,
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/too large/i) })
  })

  test('a body within the limit is still read: a sign-in with a wrong password is a 401', async () => {
    const answer = await send('/api/business/login', {
      headers: { 'Content-Type': 'application/json' },
      body: json(100),
    })
    expect(answer.status).toBe(401)
  })

  test('an url-encoded page action over 1 MB is a 413; a multipart body over the total cap too', async () => {
    const form = await send('/login', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`email=a%40b.example&password=${'x'.repeat(BODY_MAX_BYTES)}`),
      chunked: true,
    })
    expect(form.status).toBe(413)
    const multipart = await send('/api/test-upload', {
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: Buffer.alloc(64 * 1024, 'a'),
      declaredBytes: MULTIPART_BODY_MAX_BYTES + 1,
    })
    expect(multipart.status).toBe(413)
    expect(JSON.parse(multipart.body)).toEqual({ message: expect.stringMatching(/too large/i) })
  })
})

describe('a connection stays usable after an answer given without reading the body', () => {
  const early: Array<{ name: string; path: string; headers: Record<string, string> }> = [
    {
      name: '401 (signed out)',
      path: '/api/create-event-payment',
      headers: { 'Content-Type': 'application/json' },
    },
    {
      name: '404 (no such route)',
      path: '/api/no-such-route',
      headers: { 'Content-Type': 'application/json' },
    },
    { name: '415 (a page action posted as text)', path: '/login', headers: { 'Content-Type': 'text/plain' } },
    {
      name: '401 (an upload signed out)',
      path: '/api/test-upload',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    },
  ]

  test.each(early)(
    'after a 256 KB body answered early with $name, 10 of 10 follow-up requests succeed',
    async ({ path, headers }) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      agents.push(agent)
      const body = Buffer.alloc(256 * 1024, 'a')
      let succeeded = 0
      for (let i = 0; i < 10; i++) {
        const first = await send(path, { headers, body, agent })
        expect(first.status).toBeGreaterThanOrEqual(400)
        expect(first.status).toBeLessThan(500)
        const next = await send('/healthz', { method: 'GET', agent }).catch((error: Error) => error)
        if (!(next instanceof Error) && next.status === 200) succeeded++
      }
      expect(succeeded).toBe(10)
    },
  )

  test('a small unread body is drained, so the same connection is reused for the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    agents.push(agent)
    await send('/api/create-event-payment', {
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.alloc(256 * 1024, 'a'),
      agent,
    })
    const next = await send('/healthz', { method: 'GET', agent })
    expect(next.status).toBe(200)
    expect(next.reusedSocket).toBe(true)
  })

  test('a refused over-long upload answers 413 with Connection: close, and the next request succeeds', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    agents.push(agent)
    for (let i = 0; i < 10; i++) {
      const refused = await send('/api/business/login', {
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.alloc(64 * 1024, 'a'),
        declaredBytes: 2 * MiB,
        agent,
      })
      expect(refused.status).toBe(413)
      expect(refused.headers.connection).toBe('close')
      expect((await send('/healthz', { method: 'GET', agent })).status).toBe(200)
    }
  })
})
