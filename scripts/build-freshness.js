// @ts-check
// Whether build/ holds the app as its sources are now: `npm start` and the tests of the built app build only when not.
import fs from 'node:fs'
import path from 'node:path'

/** What the build is made from: a change to any of these makes the build out of date. */
const SOURCES = [
  'app',
  'db',
  'public',
  'vite.config.ts',
  'remix.config.js',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]
const BUILT_SERVER = 'build/server/index.js'
const BUILT_CLIENT = 'build/client'

/**
 * The newest modification time under `target` (a file or a folder), in ms; 0 if it does not exist.
 * @param {string} target
 * @returns {number}
 */
function newestChange(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)))
  return newest
}

/** Whether the build in `root` is there and newer than every source (a few hundred file times: milliseconds). */
export function buildIsCurrent(root = '.') {
  const built = fs.statSync(path.join(root, BUILT_SERVER), { throwIfNoEntry: false })
  if (!built || !fs.existsSync(path.join(root, BUILT_CLIENT))) return false
  return SOURCES.every((source) => newestChange(path.join(root, source)) <= built.mtimeMs)
}
