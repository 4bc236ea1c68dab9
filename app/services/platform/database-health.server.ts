import { sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { isConnectionFailure } from './database-errors.server.ts'

/** What a client is told to wait before trying again while the database is away (a restart takes about a second). */
export const DATABASE_RETRY_AFTER_SECONDS = 2
const PROBE_EVERY_MS = 250

/**
 * Whether the database was found away: set by the first request that fails on a lost connection, cleared by a
 * probe that gets through. Per process, like the connection pool it describes.
 */
const state: { awaySince: number | null; probing: boolean } = { awaySince: null, probing: false }

export function databaseAway() {
  return state.awaySince !== null
}

/** A database opened afresh (tests open one per file) has no outage on record; a running probe stops by itself. */
export function forgetDatabaseOutage() {
  state.awaySince = null
}

/** Every error a request failed on passes here (entry.server.tsx handleError). */
export function noteRequestError(error: unknown) {
  if (!isConnectionFailure(error)) return
  if (state.awaySince === null) {
    state.awaySince = Date.now()
    console.warn('The database is unreachable: answering 503 until it is back')
  }
  void probeUntilBack()
}

/** One `select 1`: true when the database answered. */
export async function pingDatabase() {
  try {
    await db.execute(sql`select 1`)
    if (state.awaySince !== null) {
      console.info(`The database is back after ${Date.now() - state.awaySince} ms`)
      state.awaySince = null
    }
    return true
  } catch (error) {
    noteRequestError(error)
    return false
  }
}

async function probeUntilBack() {
  if (state.probing) return
  state.probing = true
  try {
    while (databaseAway()) {
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS))
      await pingDatabase()
    }
  } finally {
    state.probing = false
  }
}
