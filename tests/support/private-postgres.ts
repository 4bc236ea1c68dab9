/**
 * A PostgreSQL cluster of our own (initdb into a temporary folder, a free port on 127.0.0.1) for tests and
 * benchmarks that stop and restart the database; the shared server on 5432 is never touched. initdb refuses to run
 * as root, so under root the cluster belongs to the `postgres` system user.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './server-process.ts'

const run = promisify(execFile)

function binDir() {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  const found = versions
    .map((v) => path.join(root, v, 'bin'))
    .find((dir) => fs.existsSync(path.join(dir, 'initdb')))
  if (!found)
    throw new Error('No PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)')
  return found
}

export interface PrivateCluster {
  url: string
  port: number
  start(): Promise<void>
  stop(): Promise<void>
  /** `pg_ctl restart -m fast`: what an operator does; open connections are cut. */
  restart(): Promise<void>
  /** Stops the cluster and removes its folder. */
  destroy(): Promise<void>
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = binDir()
  const asRoot = process.getuid?.() === 0
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventshout-pg-'))
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args)
  const data = path.join(dir, 'data')
  const port = await freePort()
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  // The log file and options go with every start: the server must not hold our stdout open (execFile would wait).
  const ctl = (...args: string[]) => pg('pg_ctl', ['-D', data, '-w', '-t', '60', ...args])
  const startOptions = ['-l', path.join(dir, 'log'), '-o', options]
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () => void (await ctl(...startOptions, 'start')),
    stop: async () => void (await ctl('-m', 'fast', 'stop')),
    restart: async () => void (await ctl(...startOptions, '-m', 'fast', 'restart')),
    async destroy() {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  try {
    await cluster.start()
  } catch (error) {
    await cluster.destroy()
    throw error
  }
  return cluster
}
