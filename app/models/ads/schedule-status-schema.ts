import '#app/zod-config.ts'
import { z } from 'zod'
import { text } from '#app/models/platform/input-rules.ts'
import {
  BACK_ON,
  SCHEDULE_NOTE_MAX,
  SCHEDULE_NOTE_TOO_LONG_MESSAGE,
  SCHEDULE_STATUSES,
  UNKNOWN_SCHEDULE_STATUS_MESSAGE,
} from './schedule-status.ts'

/**
 * The status form of a live ad (its dashboard page, its admin page): the choice, an optional note, and for a
 * postponed ad its new dates (checked against the ad by the service: new-dates.ts).
 */
export const scheduleStatusFormSchema = z.object({
  status: z.enum([...SCHEDULE_STATUSES, BACK_ON], { error: UNKNOWN_SCHEDULE_STATUS_MESSAGE }),
  note: text().trim().max(SCHEDULE_NOTE_MAX, SCHEDULE_NOTE_TOO_LONG_MESSAGE).optional(),
  newDates: z.array(text().trim()).optional(),
})
