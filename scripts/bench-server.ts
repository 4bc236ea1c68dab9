/** Starting and stopping the built server for the benchmarks. */
import type { ChildProcess } from 'node:child_process'
import net from 'node:net'

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
