import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { BUILD_SERVER, ensureBuild } from './built-app.ts'
import { freePort } from './server-process.ts'

/**
 * Starts `server.js` with the built app in this process, listening on a free loopback port, and returns its base
 * URL. It runs every middleware of the real server over real sockets, against this test file's own database (the
 * bundle finds the open database through the process-wide handle the test set up), and an error it logs fails
 * the test like any other `console.error`. It stops with the test file's process.
 */
export async function startRunningServer(): Promise<string> {
  await ensureBuild()
  const port = await freePort()
  process.env.PORT = String(port)
  process.env.HOST = '127.0.0.1'
  const argv = process.argv
  process.argv = [argv[0]!, 'server.js', BUILD_SERVER]
  try {
    await import(/* @vite-ignore */ pathToFileURL(path.resolve('server.js')).href)
  } finally {
    process.argv = argv
  }
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return base
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('The server did not answer /healthz')
}
