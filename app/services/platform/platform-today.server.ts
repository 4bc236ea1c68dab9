import { getEnv } from './env.server.ts'
import { todayInZone } from '#app/utils/time.ts'

/** Today (yyyy-mm-dd) in the platform time zone. */
export function platformToday(now: Date = new Date()): string {
  return todayInZone(getEnv().APP_TIME_ZONE, now)
}
