/** Starting and stopping the built server for the benchmarks. */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export const SERVER_SCRIPT = 'server.js'
export const SERVER_BUILD = 'build/server/index.js'

/** False (and says how to build) when the app has not been built. */
export function builtAppExists() {
  if (fs.existsSync(SERVER_BUILD)) return true
  console.error(`${SERVER_BUILD} is missing: run \`npx remix vite:build\` first.`)
  return false
}

/**
 * A fresh data folder and the environment a benchmark shares with the server it starts (the embedded database,
 * development rules, a throw-away session secret). It is also set on this process, so the app's modules see it.
 */
export function benchEnvironment(folderPrefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix))
  const env = {
    ...process.env,
    APP_ENV: 'development',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(24).toString('hex'),
    DATABASE_URL: '',
    HOST: '127.0.0.1',
  }
  Object.assign(process.env, env)
  return { dataDir, env }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export async function waitUntilUp(url: string, server: ChildProcess) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw new Error('The server did not start within 60 s')
}

export async function stop(server: ChildProcess) {
  if (server.exitCode !== null) return
  const exited = new Promise((resolve) => server.once('exit', resolve))
  server.kill('SIGTERM')
  const timeout = sleep(8000).then(() => 'timeout')
  if ((await Promise.race([exited, timeout])) === 'timeout') server.kill('SIGKILL')
}
