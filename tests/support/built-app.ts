import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import lockfile from 'proper-lockfile'
import { buildIsCurrent } from '../../scripts/build-freshness.js'
import { TMP_DIR } from './test-database.ts'

export const BUILD_SERVER = path.resolve('build/server/index.js')
export const BUILD_CLIENT = path.resolve('build/client')
/** Building takes tens of seconds on a busy machine. */
export const BUILD_TIMEOUT_MS = 300_000

/**
 * Builds the app (`npx remix vite:build`) when build/ is missing or older than the sources, so tests of the built
 * pages never read a stale bundle. A lock keeps two test files from building at once.
 */
export async function ensureBuild() {
  if (buildIsCurrent()) return
  fs.mkdirSync(TMP_DIR, { recursive: true })
  const lockTarget = path.join(TMP_DIR, 'build')
  fs.mkdirSync(lockTarget, { recursive: true })
  const release = await lockfile.lock(lockTarget, {
    retries: { retries: 600, minTimeout: 500, maxTimeout: 500 },
    stale: BUILD_TIMEOUT_MS,
    realpath: false,
  })
  try {
    if (buildIsCurrent()) return
    await promisify(execFile)('npx', ['remix', 'vite:build'], {
      // The test runner sets NODE_ENV=test, which would build React's development bundle: build what is deployed.
      env: { ...process.env, NODE_ENV: 'production' },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
  } finally {
    await release()
  }
}

/**
 * The built server bundle as a request handler, running in this process against the test's database (the bundle
 * finds the open database through the same process-wide handle the test set up).
 */
export async function builtRequestHandler() {
  await ensureBuild()
  const { createRequestHandler } = await import('@remix-run/node')
  const build = (await import(/* @vite-ignore */ pathToFileURL(BUILD_SERVER).href)) as Parameters<
    typeof createRequestHandler
  >[0]
  const handler = createRequestHandler(build, 'production')
  return (pathname: string, init?: RequestInit) =>
    handler(new Request(new URL(pathname, 'http://localhost'), init))
}

/** A file the built app serves from build/client (e.g. /assets/entry.client-abc.js). */
export function builtClientFile(urlPath: string) {
  const clean = decodeURIComponent(new URL(urlPath, 'http://localhost').pathname)
  const file = path.join(BUILD_CLIENT, clean)
  if (!file.startsWith(BUILD_CLIENT + path.sep)) throw new Error(`Outside the build: ${urlPath}`)
  return file
}
