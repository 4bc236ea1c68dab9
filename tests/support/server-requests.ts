/**
 * Requests to a running server process as the operating tests make them: registrations and ad uploads whose
 * bodies are sent in two halves, so a test can hold them in flight while it restarts or stops the server.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import { approveBody, solidPng } from './ad-submission.ts'
import { registrationFields } from './registration-fields.ts'


export const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(5).toString('hex')}@example.com`

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/**
 * A request whose body is sent up to `splitAt` bytes once the server has taken it (`received`: it asked for the
 * body with `100 Continue`, so its handlers are running), and the rest when `finish()` is called.
 */
export function heldRequest(
  base: string,
  {
    method = 'POST',
    path,
    headers = {},
    body,
  }: { method?: string; path: string; headers?: Record<string, string>; body: Buffer },
  splitAt = Math.floor(body.length / 2),
) {
  const url = new URL(path, base)
  const request = http.request({
    host: url.hostname,
    port: url.port,
    method,
    path: url.pathname + url.search,
    agent: false,
    headers: { Origin: base, 'Content-Length': String(body.length), Expect: '100-continue', ...headers },
  })
  const received = new Promise<void>((resolve) =>
    request.once('continue', () => {
      request.write(body.subarray(0, splitAt))
      resolve()
    }),
  )
  let finished = false
  const answer = new Promise<Answer | Error>((resolve) => {
    request.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      res.on('error', resolve)
    })
    request.on('error', resolve)
  })
  request.flushHeaders()
  return {
    received,
    answer,
    finish() {
      if (finished) return
      finished = true
      void received.then(() => request.end(body.subarray(splitAt)))
    },
  }
}

export function registrationRequest(base: string, email: string) {
  return heldRequest(base, {
    path: '/api/business',
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify(registrationFields(email))),
  })
}

/** Registers a business (201, or throws). */
export async function register(base: string, email: string) {
  const held = registrationRequest(base, email)
  held.finish()
  const answer = await held.answer
  if (answer instanceof Error || answer.status !== 201)
    throw new Error(`Registration failed: ${JSON.stringify(answer)}`)
}

/** Registers a business, signs it in, and answers its session's cookie header. */
export async function registeredCookie(base: string, email = uniqueEmail('owner')) {
  await register(base, email)
  const res = await fetch(`${base}/api/business/login`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: registrationFields(email).businessPassword }),
  })
  if (res.status !== 200) throw new Error(`Sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/** An ad with a photo, posted as the event form does with JavaScript (POST /api/approve-event). */
export async function photoUploadRequest(base: string, cookie: string, title: string) {
  const form = approveBody({ eventData: { eventTitle: title }, image: await solidPng(800, 450, '#2563eb') })
  const encoded = new Response(form)
  const body = Buffer.from(await encoded.arrayBuffer())
  return heldRequest(base, {
    path: '/api/approve-event',
    headers: { Cookie: cookie, 'Content-Type': encoded.headers.get('Content-Type')! },
    body,
  })
}
