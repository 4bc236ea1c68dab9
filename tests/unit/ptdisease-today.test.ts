import { afterEach, describe, expect, test, vi } from 'vitest'
import { buildPtdiseaseSchema } from '#app/models/patient-records/ptdisease-schema.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'

const runtimeZone = process.env.TZ

afterEach(() => {
  vi.useRealTimers()
  if (runtimeZone === undefined) delete process.env.TZ
  else process.env.TZ = runtimeZone
})

describe('"today" for a date of birth', () => {
  test("is the platform's (America/New_York here), not the runtime's time zone", () => {
    // 00:30 on 11 March in New York; still the 10th in a runtime twelve hours behind UTC.
    process.env.TZ = 'Etc/GMT+12'
    vi.useFakeTimers({ now: new Date('2026-03-11T04:30:00Z') })
    expect(new Date().getDate()).toBe(10)
    // What the pages' loaders give the form, and what the server's own schemas use.
    const schema = buildPtdiseaseSchema(platformToday)
    const record = { mrn: 'MRN-0001', disease: 'Type 2 diabetes mellitus' }
    expect(schema.safeParse({ ...record, dob: '2026-03-11' }).success).toBe(true)
    expect(schema.safeParse({ ...record, dob: '2026-03-12' }).success).toBe(false)
  })
})
