import {
  invalidateLiveEvents,
  logRefreshFailuresWith,
} from '#app/models/calendar/live-events-cache.server.ts'
import { forgetDatabaseOutage } from '#app/services/platform/database-health.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'
import { useDatabase } from '#db/client.server.ts'
import { createTestDatabase } from './test-database.ts'

/**
 * How every test file starts (tests/support/setup-database.ts), as a new process would even in a worker that ran other
 * files before it: its own copy of the migrated database, no listings cached from another file's data, no outage
 * left on record by a file that closed its database under a request, and the environment the run started with. A
 * failed refresh of the listings is logged as the server logs it, so a stray one fails the test.
 */
export async function startAsNewProcess(template: string) {
  resetEnvCache()
  invalidateLiveEvents()
  logRefreshFailuresWith((error, msg) => logError(error, { msg }))
  useDatabase(await createTestDatabase(template))
  forgetDatabaseOutage()
}
