/**
 * The built server as a child process on a free loopback port, for tests and benchmarks that need a real one:
 * finding the port, starting it, waiting until it answers, stopping it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'

export const SERVER_SCRIPT = 'server.js'
export const SERVER_BUILD = 'build/server/index.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
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

/**
 * Resolves once `url` answers 2xx; fails when `server` exits first or after `withinMs`. Three minutes: a server on a
 * new embedded folder answers after ~11 s on an idle 2-core machine (initdb and the migrations are 9 s of it), and
 * after more than a minute while other test files keep both cores busy.
 */
export async function waitUntilUp(url: string, server: ChildProcess, withinMs = 180_000) {
  const deadline = Date.now() + withinMs
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
  throw new Error(`The server did not start within ${withinMs / 1000} s`)
}

export interface ServerProcess {
  server: ChildProcess
  base: string
  /** The last 20 000 characters the server wrote to stderr (empty when stderr is passed through). */
  log(): string
  /** The last 200 000 characters the server wrote to stdout (its request log), when asked to keep them. */
  output(): string
}

/**
 * `node server.js build/server/index.js` with `env` on a free port of 127.0.0.1, once `healthPath` answers. Its
 * stdout is dropped unless `stdout: 'keep'`: the server logs every request there, and a pipe nobody drains fast
 * enough would stall it (stdout writes to a pipe are synchronous). Its stderr is kept for error messages, or passed
 * through.
 */
export async function startServerProcess({
  env,
  healthPath = '/healthz',
  stderr = 'keep',
  stdout = 'ignore',
}: {
  env: NodeJS.ProcessEnv
  healthPath?: string
  stderr?: 'keep' | 'inherit'
  stdout?: 'keep' | 'ignore'
}): Promise<ServerProcess> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [SERVER_SCRIPT, SERVER_BUILD], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', stdout === 'keep' ? 'pipe' : 'ignore', stderr === 'inherit' ? 'inherit' : 'pipe'],
  })
  let log = ''
  let output = ''
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)))
  server.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)))
  try {
    await waitUntilUp(`${base}${healthPath}`, server)
  } catch (error) {
    await stopServer(server)
    throw new Error(`${(error as Error).message}${log ? `:\n${log}` : ''}`)
  }
  return { server, base, log: () => log, output: () => output }
}

/** SIGTERM, and SIGKILL when it has not exited after 8 s. */
export async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null) return
  const exited = new Promise((resolve) => server.once('exit', resolve))
  server.kill('SIGTERM')
  const timeout = sleep(8000).then(() => 'timeout')
  if ((await Promise.race([exited, timeout])) === 'timeout') server.kill('SIGKILL')
}

/** The exit code of a server process, once it has exited. */
export function exitOf(server: ChildProcess) {
  return new Promise<number | null>((resolve) =>
    server.exitCode !== null ? resolve(server.exitCode) : server.once('exit', (code) => resolve(code)),
  )
}

/**
 * The environment of a built server under production's server settings, its files in `dataDir`, on the database
 * `databaseUrl` (the embedded one in `dataDir` when empty), its mail kept in the outbox.
 */
export function productionServerEnv(
  dataDir: string,
  databaseUrl: string,
  extra: Record<string, string> = {},
) {
  return {
    ...process.env,
    APP_ENV: 'test',
    NODE_ENV: 'production' as const,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SMTP_URL: '',
    ...extra,
  }
}

/** The environment of a built server on an embedded database in `dataDir`, under production's server settings. */
export function embeddedServerEnv(dataDir: string, extra: Record<string, string> = {}) {
  return productionServerEnv(dataDir, '', extra)
}
