/**
 * `server.js` under the production rules (APP_ENV=production), the app built from its sources by Vite as `npm run dev`
 * does, so no build is needed: a start without what production cannot do without is refused, and the subscription
 * pages answer as they must in front of browsers, mail providers' link scanners and clients that lie about Host.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort, stopServer, waitUntilUp } from '#tests/support/server-process.ts'
import { TestSmtpServer } from '#tests/support/smtp-server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const root = path.join(TMP_DIR, `production-server-${process.pid}`)
const PUBLIC_URL = 'https://events.example'
const PUBLIC_HOST = 'events.example'
const START_TIMEOUT_MS = 200_000

/** The environment of a production start, without the test runner's own variables (they would stop no refusal). */
function productionEnv(name: string, values: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([variable]) => !variable.startsWith('VITEST')),
  )
  return {
    ...inherited,
    NODE_ENV: 'development',
    APP_ENV: 'production',
    SESSION_SECRET: 'production-server-test-secret-of-40-characters',
    ALLOW_NO_IDENTITY_PROVIDER: 'true',
    DATA_DIR: path.join(root, name),
    DATABASE_URL: '',
    SMTP_URL: '',
    PUBLIC_URL: '',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    // Vite's own check of Host (it serves the sources here, a built server has none) lets the hosts of this test by.
    __VITE_ADDITIONAL_SERVER_ALLOWED_HOSTS: '.example',
    ...values,
  }
}

interface Started {
  server: ChildProcess
  port: number
  stdout: () => string
  stderr: () => string
}

async function startServer(env: NodeJS.ProcessEnv): Promise<Started> {
  const port = await freePort()
  const server = spawn(process.execPath, ['server.js'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  server.stdout?.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-200_000)))
  server.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)))
  return { server, port, stdout: () => stdout, stderr: () => stderr }
}

/** The exit code of a server that must refuse to start (null: still running after the timeout, then stopped). */
async function exitCode(started: Started) {
  const { server } = started
  const code = await new Promise<number | null>((resolve) => {
    if (server.exitCode !== null) return resolve(server.exitCode)
    const timer = setTimeout(() => resolve(null), START_TIMEOUT_MS - 10_000)
    server.once('exit', (exited) => {
      clearTimeout(timer)
      resolve(exited)
    })
  })
  if (code === null) await stopServer(server)
  return code
}

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** A request with exactly these headers (Host included), as a browser, a scanner or curl sends it. */
function send(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string>,
  body = '',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
/** What a browser sends with a form posted from a page of this site whose Referrer-Policy is no-referrer. */
const OWN_NO_REFERRER_FORM = { ...FORM, Host: PUBLIC_HOST, Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }

beforeAll(() => fs.mkdirSync(root, { recursive: true }))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe('a production start', () => {
  test(
    'without PUBLIC_URL is refused, non-zero, naming the variable',
    async () => {
      const started = await startServer(productionEnv('no-public-url', {}))
      expect(await exitCode(started), started.stderr()).toBeGreaterThan(0)
      expect(started.stderr()).toContain(
        'PUBLIC_URL is required in production: the absolute https:// address of the site (links in emails and feeds use it)',
      )
    },
    START_TIMEOUT_MS,
  )

  test(
    'with an http:// PUBLIC_URL is refused too',
    async () => {
      const started = await startServer(
        productionEnv('http-public-url', { PUBLIC_URL: 'http://events.example' }),
      )
      expect(await exitCode(started), started.stderr()).toBeGreaterThan(0)
      expect(started.stderr()).toContain('PUBLIC_URL is required in production')
    },
    START_TIMEOUT_MS,
  )
})

describe('a production server', () => {
  const smtp = new TestSmtpServer()
  let started: Started
  let port: number

  beforeAll(async () => {
    await smtp.start()
    started = await startServer(
      productionEnv('serving', {
        PUBLIC_URL,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Events <no-reply@events.example>',
      }),
    )
    port = started.port
    try {
      await waitUntilUp(`http://127.0.0.1:${port}/healthz`, started.server)
    } catch (error) {
      throw new Error(`${(error as Error).message}:\n${started.stderr()}`)
    }
  }, START_TIMEOUT_MS)

  afterAll(async () => {
    if (started) await stopServer(started.server)
    await smtp.stop()
  })

  /** The mail the server's own worker delivers (it looks at the outbox every few seconds). */
  async function nextMail() {
    const deadline = Date.now() + 30_000
    while (smtp.received.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    const mail = smtp.received.shift()
    expect(mail, 'an email').toBeTruthy()
    return mail!
  }

  const linksOf = (text: string) => text.match(/https?:\/\/[^\s"<>)]+/g) ?? []
  const pathOf = (link: string) => {
    const url = new URL(link)
    return url.pathname + url.search
  }
  const page = (target: string, headers: Record<string, string> = {}) =>
    send(port, 'GET', target, { Host: PUBLIC_HOST, ...headers })

  test('says at start what it runs without, one warning a variable', () => {
    const warnings = started
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"variable"'))
      .map((line) => JSON.parse(line) as { level: number; variable: string; msg: string })
    expect(warnings.map((w) => w.variable)).toEqual(['TRUST_PROXY', 'STRIPE_SECRET_KEY'])
    for (const warning of warnings) expect(warning.msg).toContain(warning.variable)
  })

  let confirmLink: string
  let manageLink: string
  let unsubscribeLink: string

  test('POST /subscribe sent with Host: evil.example and no Origin: answered, not stored, every link from PUBLIC_URL', async () => {
    const form = await send(port, 'GET', '/subscribe?keyword=jazz', { Host: 'evil.example' })
    expect(form.status).toBe(200)
    expect(form.headers['cache-control']).toBe('no-store')

    const answer = await send(
      port,
      'POST',
      '/subscribe',
      { ...FORM, Host: 'evil.example' },
      new URLSearchParams({
        kind: 'search',
        email: 'visitor@example.org',
        frequency: 'weekly',
        keyword: 'jazz',
      }).toString(),
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toContain('Check your inbox')
    expect(answer.headers['cache-control']).toBe('no-store')

    const mail = await nextMail()
    const whole = JSON.stringify(mail)
    expect(whole).not.toContain('evil.example')
    const links = [
      ...linksOf(mail.text),
      ...linksOf(mail.html),
      mail.headers['list-unsubscribe']!.slice(1, -1),
    ]
    for (const link of links) expect(link).toMatch(/^https:\/\/events\.example\//)
    confirmLink = pathOf(links.find((link) => link.includes('/subscriptions/confirm?'))!)
    manageLink = pathOf(links.find((link) => link.includes('/subscriptions/manage?'))!)
    unsubscribeLink = pathOf(links.find((link) => link.includes('/subscriptions/unsubscribe?'))!)
  })

  test('the confirmation link: GET shows a Confirm button and confirms nothing; the button confirms', async () => {
    // A mail provider's link scanner follows the link, maybe twice.
    for (let visit = 0; visit < 2; visit++) {
      const shown = await page(confirmLink)
      expect(shown.status).toBe(200)
      expect(shown.body).toContain('Confirm your subscription')
      expect(shown.body).toContain('Keyword “jazz”')
      expect(shown.body).toContain(`action="${confirmLink.replaceAll('&', '&amp;')}"`)
      expect(shown.body).not.toContain('Subscription confirmed')
    }
    // Nothing confirmed: the manage page still waits for the link.
    expect((await page(manageLink)).body).toContain('Waiting for the confirmation link to be followed')

    const confirmed = await send(port, 'POST', confirmLink, OWN_NO_REFERRER_FORM)
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toContain('Subscription confirmed')
    expect((await page(manageLink)).body).not.toContain('Waiting for the confirmation link to be followed')
    expect((await page(confirmLink)).body).toContain('Subscription confirmed')
  })

  test('the token pages send Referrer-Policy: no-referrer and are not stored, refusals included', async () => {
    const bad = '/subscriptions/confirm?token=1.confirm.9999999999.forged'
    for (const target of [confirmLink, manageLink, unsubscribeLink, bad]) {
      const answer = await page(target)
      expect(answer.status, target).toBe(target === bad ? 400 : 200)
      expect(answer.headers['referrer-policy'], target).toBe('no-referrer')
      expect(answer.headers['cache-control'], target).toBe('no-store')
    }
  })

  test('their forms work under no-referrer; a GET of the unsubscribe link deletes nothing, its button does', async () => {
    const saved = await send(
      port,
      'POST',
      manageLink,
      OWN_NO_REFERRER_FORM,
      new URLSearchParams({ intent: 'frequency', frequency: 'daily' }).toString(),
    )
    expect(saved.status).toBe(200)
    expect(saved.body).toContain('Saved: your emails will come at the new frequency.')
    expect(saved.headers['referrer-policy']).toBe('no-referrer')

    const unsubscribePage = await page(unsubscribeLink)
    expect(unsubscribePage.body).toContain('Unsubscribe</button>')
    expect((await page(manageLink)).status).toBe(200)

    const done = await send(port, 'POST', unsubscribeLink, OWN_NO_REFERRER_FORM, 'List-Unsubscribe=One-Click')
    expect(done.status).toBe(200)
    expect(done.body).toContain('You are unsubscribed')
    expect((await page(manageLink)).status).toBe(404)
    // The mail provider's one-click POST (RFC 8058): no Origin, no Sec-Fetch-Site; again is answered the same.
    const oneClick = await send(
      port,
      'POST',
      unsubscribeLink,
      { ...FORM, Host: PUBLIC_HOST },
      'List-Unsubscribe=One-Click',
    )
    expect(oneClick.status).toBe(200)
  })

  test('a null origin that is not this site’s own is still refused', async () => {
    const forged = await send(port, 'POST', confirmLink, {
      ...OWN_NO_REFERRER_FORM,
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(forged.status).toBe(403)
  })
})
