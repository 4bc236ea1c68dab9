import fs from 'node:fs'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium']

/** Debian's Chromium; the tests never download a browser of their own. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`)
    return fromEnv
  }
  const found = CANDIDATES.find((p) => fs.existsSync(p))
  if (!found) {
    throw new Error(
      'Chromium was not found. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium binary.',
    )
  }
  return found
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
