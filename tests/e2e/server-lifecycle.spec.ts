import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'

const PORT = 43917

test('the built server starts on a fresh embedded database, logs paths only, and stops cleanly at SIGTERM', async ({
  request,
}) => {
  test.setTimeout(90_000)
  const dataDir = path.resolve(`tests/.tmp/lifecycle-${process.pid}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  const started = Date.now()
  const server = spawn(process.execPath, ['server.js', 'build/server/index.js'], {
    env: {
      ...process.env,
      APP_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let accessLog = ''
  server.stdout?.on('data', (chunk: Buffer) => (accessLog += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)))
  try {
    let healthy = false
    while (!healthy && Date.now() - started < 60_000) {
      healthy = await request
        .get(`http://127.0.0.1:${PORT}/healthz`)
        .then((r) => r.ok())
        .catch(() => false)
      if (!healthy) await new Promise((r) => setTimeout(r, 200))
    }
    expect(healthy).toBe(true)
    test
      .info()
      .annotations.push({ type: 'cold start to first response', description: `${Date.now() - started} ms` })
    const page = await request.get(`http://127.0.0.1:${PORT}/landing`)
    expect(page.status()).toBe(200)
    // The access log (a JSON object a line) holds paths only: a query string can hold what someone searched for.
    const search = await request.get(`http://127.0.0.1:${PORT}/patient-diseases?search=Jane+Doe+diabetes`, {
      maxRedirects: 0,
    })
    const requestId = search.headers()['x-request-id']
    const logLines = () =>
      accessLog
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    await expect
      .poll(() => logLines().find((line) => line.requestId === requestId))
      .toMatchObject({
        method: 'GET',
        path: '/patient-diseases',
        route: '/patient-diseases',
        status: search.status(),
      })
    expect(accessLog).not.toContain('Jane')

    server.kill('SIGTERM')
    // 0: it finished what it had and stopped; a shutdown cut short by its timeout exits 1.
    expect(await exited).toBe(0)
    // The database folder's lock is released, so the next process may open it.
    expect(fs.existsSync(path.join(dataDir, 'pg.lock'))).toBe(false)
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
