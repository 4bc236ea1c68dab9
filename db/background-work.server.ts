import { AsyncLocalStorage } from 'node:async_hooks'

const backgroundWork = new AsyncLocalStorage<true>()

/**
 * Runs `work` (a scheduled job, an operator's command) behind the site's requests: on the embedded database its
 * statements wait while a request's are running (see PGliteThread). A request's page must not queue behind a job that
 * reads the whole calendar.
 */
export function asBackgroundWork<T>(work: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, work)
}

export function isBackgroundWork() {
  return backgroundWork.getStore() === true
}

/**
 * Lets the requests that arrived meanwhile run before background work goes on. An awaited promise that is already
 * settled (a cached answer) does not: a loop of them would hold the event loop for its whole length.
 */
export function yieldToRequests() {
  return new Promise<void>((resolve) => setImmediate(resolve))
}
