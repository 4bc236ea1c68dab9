/**
 * A short-lived, in-process cache of public listing results. Public pages are read far more often than events
 * change, and a filtered listing over many events costs the database milliseconds while the page around it costs
 * far less, so repeated identical listings are answered from memory.
 *
 * Staleness is bounded: an entry is fresh for about LIVE_EVENTS_CACHE_TTL_MS; after that the old value is still
 * served while one refresh runs (so an expiry never makes a crowd of visitors wait on the database), and after
 * STALE_FOR_MS more it is dropped. "Today" is part of every key (past events drop off at midnight), and a moderation
 * decision clears everything at once, on every server of the same PostgreSQL (public-pages-changes.server.ts).
 */

export const LIVE_EVENTS_CACHE_TTL_MS = 15_000
const STALE_FOR_MS = 45_000
/** Expiries are spread by ±20 %, so entries filled together are not all refreshed together. */
const TTL_JITTER = 0.2
const MAX_ENTRIES = 500

interface Entry {
  freshUntil: number
  staleUntil: number
  value: Promise<unknown>
  generation: number
  refreshing: boolean
}

const entries = new Map<string, Entry>()
let generation = 0

/** At most this many values of one kind are kept by id (`cachedLiveEventsByIds`; least recently used go first). */
const MAX_VALUES_BY_ID = 5_000

interface ValueById {
  value: unknown
  freshUntil: number
}

const valuesById = new Map<string, Map<number, ValueById>>()

/** Logs a failure no caller waits for: `message` says what failed. */
export type FailureLog = (error: unknown, message: string) => void

let logFailure: FailureLog = () => {}

/**
 * Where a failed refresh in the background is logged: the server's logger, given when the database opens (a model
 * cannot import it). Until then such a failure only leaves the stale value in place.
 */
export function logRefreshFailuresWith(log: FailureLog) {
  logFailure = log
}

/** Forgets every cached listing (after an approval or rejection, or between tests). */
export function invalidateLiveEvents() {
  generation++
  entries.clear()
  for (const values of valuesById.values()) values.clear()
}

/** Changes whenever the listings are invalidated, so caches built on them (whole pages) can tell they are stale. */
export function liveEventsGeneration() {
  return generation
}

function freshFor(now: number) {
  return now + LIVE_EVENTS_CACHE_TTL_MS * (1 - TTL_JITTER + Math.random() * 2 * TTL_JITTER)
}

function store(key: string, value: Promise<unknown>, now: number): Entry {
  const freshUntil = freshFor(now)
  const entry: Entry = {
    freshUntil,
    staleUntil: freshUntil + STALE_FOR_MS,
    value,
    generation,
    refreshing: false,
  }
  entries.delete(key)
  entries.set(key, entry)
  while (entries.size > MAX_ENTRIES) {
    const oldest = entries.keys().next().value
    if (oldest === undefined) break
    entries.delete(oldest)
  }
  return entry
}

/**
 * The cached value for `key`, or `load()`'s (shared by concurrent callers, so a burst of identical requests runs the
 * query once). A failed load is not kept; a failed refresh keeps serving the old value until it is too old.
 */
export function cachedLiveEvents<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = entries.get(key)
  if (hit && hit.generation === generation && now < hit.staleUntil) {
    // Refresh the position, so the map's order is least recently used first.
    entries.delete(key)
    entries.set(key, hit)
    if (now >= hit.freshUntil && !hit.refreshing) {
      hit.refreshing = true
      const startedIn = generation
      load().then(
        (value) => {
          // Fresh from when the refresh started, like a first load.
          if (generation === startedIn && entries.get(key) === hit) store(key, Promise.resolve(value), now)
        },
        (error: unknown) => {
          hit.refreshing = false
          logFailure(error, `Refreshing the cached listing ${key} failed`)
        },
      )
    }
    return hit.value as Promise<T>
  }
  const value = load()
  const entry = store(key, value, now)
  value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key)
  })
  return value
}

/**
 * What each of `ids` stands for (say, an event's card), kept by id under the listings' rules: fresh for about
 * LIVE_EVENTS_CACHE_TTL_MS and forgotten with them. The ids not held are loaded together, in one `load` call; an id
 * `load` does not answer is left out. The same value comes back for an id until it is reloaded, so what is built from
 * it can be kept with it. Many listings show the same events, so a listing asks the database only for its order.
 */
export async function cachedLiveEventsByIds<T>(
  kind: string,
  ids: readonly number[],
  load: (ids: number[]) => Promise<Map<number, T>>,
  now = Date.now(),
): Promise<Map<number, T>> {
  let values = valuesById.get(kind)
  if (!values) valuesById.set(kind, (values = new Map()))
  const found = new Map<number, T>()
  const missing: number[] = []
  for (const id of ids) {
    const hit = values.get(id)
    if (hit && now < hit.freshUntil) {
      values.delete(id)
      values.set(id, hit)
      found.set(id, hit.value as T)
    } else if (!missing.includes(id)) missing.push(id)
  }
  if (missing.length === 0) return found
  const startedIn = generation
  const loaded = await load(missing)
  for (const [id, value] of loaded) {
    found.set(id, value)
    // A value loaded before the listings changed is not kept for later.
    if (generation !== startedIn) continue
    values.delete(id)
    values.set(id, { value, freshUntil: freshFor(now) })
  }
  while (values.size > MAX_VALUES_BY_ID) {
    const oldest = values.keys().next().value
    if (oldest === undefined) break
    values.delete(oldest)
  }
  return found
}
