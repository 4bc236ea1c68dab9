/** Where a server's admin socket is, for the commands that talk to it without loading the server's modules. */
import path from 'node:path'
import { getEnv } from '../platform/env.server.ts'

export const ADMIN_SOCKET_FILE = 'admin.sock'

/** Where the server of the data folder `dataDir` listens for admin commands. */
export function adminSocketPath(dataDir = getEnv().DATA_DIR) {
  return path.resolve(dataDir, ADMIN_SOCKET_FILE)
}
