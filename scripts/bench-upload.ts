/**
 * Upload benchmark: `npm run bench:upload` after `npx remix vite:build`.
 *
 * Starts the built server on a fresh embedded database, signs a business in, streams a 50 MB WebM-signature video
 * to POST /api/test-upload and samples the server's resident memory (VmRSS in /proc/<pid>/status) every 20 ms.
 * Reports throughput and the peak RSS growth over the idle baseline; exits 1 when the growth is over budget
 * (an upload must be streamed to disk, never held in memory) or the upload fails. Then downloads the stored video
 * with a client that stops reading after 1 MB, and reports what that costs the server (for reference).
 *
 * `npm run bench:upload -- --s3` does the same with media in an S3-compatible bucket: it starts s3rver on loopback
 * in this process (so its memory is not the server's) and points the server at it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { VIDEO_MAX_BYTES } from '#app/constants.ts'
import { streamedMultipart, webmBytes } from '#tests/support/media.ts'
import { s3Environment, startS3Server } from '#tests/support/s3-server.ts'
import { benchEnvironment, builtAppExists, rssOf, rssSampler, sleep } from './bench-server.ts'
import {
  freePort,
  SERVER_BUILD,
  SERVER_SCRIPT,
  stopServer,
  waitUntilUp,
} from '#tests/support/server-process.ts'

const BUDGET_BYTES = 32 * 1024 * 1024
const MB = 1024 * 1024

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

/** A business and its session row, written before the server opens the database (one process per folder). */
async function signedInCookie(dataDir: string) {
  const { openEmbeddedDatabase, useDatabase: setCurrentDatabase } = await import('#db/client.server.ts')
  const { insertBusiness } = await import('#db/factories.ts')
  const { sessionCookieFor } = await import('#tests/support/auth.ts')
  const handle = await openEmbeddedDatabase(dataDir)
  setCurrentDatabase(handle)
  try {
    const business = await insertBusiness(handle.db, { businessName: 'Bench Business' })
    return await sessionCookieFor({ business })
  } finally {
    setCurrentDatabase(undefined)
    await handle.close()
  }
}

/** Streams a generated multipart body over HTTP with backpressure, as a browser would (with Content-Length). */
async function upload(base: string, cookie: string, fileBytes: number) {
  const { body, contentType, length } = streamedMultipart([
    { name: 'video', filename: 'bench.webm', contentType: 'video/webm', value: webmBytes(), size: fileBytes },
  ])
  const url = new URL('/api/test-upload', base)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        // Origin: a signed-in upload comes from the site's own page.
        headers: {
          Cookie: cookie,
          Origin: url.origin,
          'Content-Type': contentType,
          'Content-Length': String(length),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    void (async () => {
      const reader = body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        if (!req.write(value)) await new Promise((r) => req.once('drain', r))
      }
      req.end()
    })().catch(reject)
  })
}

function start(args: string[], env: NodeJS.ProcessEnv, log: (text: string) => void) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk: Buffer) => log(chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => log(chunk.toString()))
  return child
}

/** Warm up, take the idle RSS (median over 1 s), then upload 50 MB while sampling. */
async function measure(pid: number, base: string, cookie: string) {
  // A small upload first, so code loaded on first use is not counted as upload memory.
  const warm = await upload(base, cookie, 64 * 1024)
  if (warm.status !== 200) throw new Error(`Warm-up upload failed: ${warm.status} ${warm.body}`)
  await sleep(1000)
  const idle = rssSampler(pid)
  await sleep(1000)
  idle.stop()
  const baseline = [...idle.samples].sort((a, b) => a - b)[Math.floor(idle.samples.length / 2)] ?? rssOf(pid)

  const during = rssSampler(pid)
  const started = performance.now()
  const result = await upload(base, cookie, VIDEO_MAX_BYTES)
  const seconds = (performance.now() - started) / 1000
  await sleep(500)
  during.stop()
  const peak = Math.max(baseline, ...during.samples)
  return { result, seconds, baseline, peak, growth: peak - baseline, samples: during.samples.length }
}

/**
 * A visitor whose player stops reading: takes the first megabyte of the stored video, then stops for 3 s while the
 * server's memory is sampled. A server that respects backpressure holds a few buffers, not the rest of the file.
 */
async function pausedDownload(pid: number, url: URL, cookie: string) {
  await sleep(1000)
  const baseline = rssOf(pid)
  const during = rssSampler(pid)
  await new Promise<void>((resolve, reject) => {
    const req = http.get(url, { headers: { Cookie: cookie } }, (res) => {
      let received = 0
      res.on('data', (chunk: Buffer) => {
        received += chunk.length
        if (received < MB || res.isPaused()) return
        res.pause()
        setTimeout(() => {
          res.destroy()
          resolve()
        }, 3000)
      })
      res.on('error', () => {})
    })
    req.on('error', reject)
  })
  during.stop()
  return Math.max(baseline, ...during.samples) - baseline
}

/**
 * The same upload to a bare `node:http` server that pipes the body to a file: what Node itself costs to receive
 * 50 MB (socket buffers awaiting garbage collection), printed for comparison only.
 */
const CONTROL_SERVER = `
const http = require('node:http'), fs = require('node:fs'), path = require('node:path')
const { pipeline } = require('node:stream/promises')
http.createServer(async (req, res) => {
  if (req.method !== 'POST') return res.end('ok')
  await pipeline(req, fs.createWriteStream(path.join(process.env.DATA_DIR, 'control.bin')))
  res.setHeader('Content-Type', 'application/json')
  res.end('{}')
}).listen(Number(process.env.PORT), '127.0.0.1')
`

async function main() {
  if (!builtAppExists()) return 2
  const { dataDir, env } = benchEnvironment('eventshout-bench-')

  const useS3 = process.argv.includes('--s3')
  let server: ChildProcess | undefined
  let control: ChildProcess | undefined
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined
  let serverLog = ''
  try {
    const cookie = await signedInCookie(dataDir)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let storageEnv = {}
    if (useS3) {
      s3 = await startS3Server(`${dataDir}/s3rver`)
      storageEnv = await s3Environment(s3.endpoint, 'bench-media')
    }
    server = start(
      [SERVER_SCRIPT, SERVER_BUILD],
      { ...env, ...storageEnv, PORT: String(port) },
      (t) => (serverLog += t),
    )
    await waitUntilUp(`${base}/healthz?db=0`, server)
    const app = await measure(server.pid!, base, cookie)
    if (app.result.status !== 200) throw new Error(`Upload failed: ${app.result.status} ${app.result.body}`)
    const { publicUrl } = JSON.parse(app.result.body) as { publicUrl: string }
    // A test upload is private to its business, like any media of an ad that is not live.
    const stored = await fetch(new URL(publicUrl, base), { method: 'HEAD', headers: { Cookie: cookie } })
    const storedBytes = Number(stored.headers.get('content-length'))
    if (storedBytes !== VIDEO_MAX_BYTES) {
      throw new Error(`Stored ${storedBytes} bytes, expected ${VIDEO_MAX_BYTES}`)
    }
    const pausedGrowth = await pausedDownload(server.pid!, new URL(publicUrl, base), cookie)
    await stopServer(server)

    const controlPort = await freePort()
    const controlBase = `http://127.0.0.1:${controlPort}`
    control = start(['-e', CONTROL_SERVER], { ...env, PORT: String(controlPort) }, () => {})
    await waitUntilUp(controlBase, control)
    const floor = await measure(control.pid!, controlBase, cookie)

    console.info(
      `Upload of ${mb(VIDEO_MAX_BYTES)} to POST /api/test-upload (${useS3 ? 'S3-compatible bucket' : 'local folder'}) → ${app.result.status} ${publicUrl}`,
    )
    console.info(
      `  time ${app.seconds.toFixed(2)} s, throughput ${(VIDEO_MAX_BYTES / MB / app.seconds).toFixed(1)} MB/s`,
    )
    console.info(
      `  server RSS: idle baseline ${mb(app.baseline)}, peak ${mb(app.peak)} (${app.samples} samples)`,
    )
    console.info(`  peak growth ${mb(app.growth)} (budget ${mb(BUDGET_BYTES)})`)
    console.info(`A download of it that stops reading after 1 MB: server growth ${mb(pausedGrowth)} over 3 s`)
    console.info(
      `Bare node:http server piping the same body to a file: growth ${mb(floor.growth)}, ` +
        `${(VIDEO_MAX_BYTES / MB / floor.seconds).toFixed(1)} MB/s (for comparison)`,
    )
    if (app.growth > BUDGET_BYTES) {
      console.error(`Over budget: the upload grew the server by ${mb(app.growth)}.`)
      return 1
    }
    console.info('Within budget.')
    return 0
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    if (serverLog) console.error(`Server output:\n${serverLog}`)
    return 1
  } finally {
    if (server) await stopServer(server)
    if (control) await stopServer(control)
    await s3?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
