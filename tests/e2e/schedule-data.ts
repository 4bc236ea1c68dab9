/**
 * The ads with times and a schedule status the end-to-end server starts with (seeded by
 * tests/e2e/seed-schedule.ts): one timed, one cancelled with a note, one postponed, one sold out, two a day on two
 * days of the same month, all found with the keyword "Lantern".
 */
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { E2E_TIME_ZONE } from './ad-analytics-data.ts'

const today = todayInZone(E2E_TIME_ZONE)
export const scheduleToday = today
/** Two days in a row within one month, from the day after tomorrow on. */
const first = addDaysIso(today, 2).slice(0, 7) === addDaysIso(today, 3).slice(0, 7) ? 2 : 3
export const scheduleDays = [addDaysIso(today, first), addDaysIso(today, first + 1)] as const
export const scheduleMonth = scheduleDays[0].slice(0, 7)

export const SCHEDULE_KEYWORD = 'Lantern'
export const SCHEDULE_TICKETS = 'https://tickets.example.com/lantern'

export const scheduleOwner = {
  businessName: 'Lantern Hall',
  businessEmail: 'lantern-hall@example.com',
  password: 'lantern-secret-1',
}

export const scheduleAds = {
  timed: {
    eventTitle: 'Lantern Jazz Evening',
    eventDate: scheduleDays[0],
    startTime: '19:30',
    endTime: '22:00',
    scheduleStatus: null,
    scheduleNote: '',
  },
  cancelled: {
    eventTitle: 'Lantern Harvest Fair',
    eventDate: scheduleDays[0],
    startTime: '10:00',
    endTime: '16:00',
    scheduleStatus: 'cancelled',
    scheduleNote: 'Moved to the gym',
  },
  postponed: {
    eventTitle: 'Lantern Poetry Slam',
    eventDate: scheduleDays[1],
    startTime: null,
    endTime: null,
    scheduleStatus: 'postponed',
    scheduleNote: 'New date to follow',
  },
  soldOut: {
    eventTitle: 'Lantern Comedy Night',
    eventDate: scheduleDays[1],
    startTime: '20:00',
    endTime: null,
    scheduleStatus: 'sold_out',
    scheduleNote: '',
  },
} as const
