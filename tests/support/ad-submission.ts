/** What the tests of creating and editing an ad share: their own upload folder, a photo, the approve-event body. */
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll } from 'vitest'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { ensureCategories } from '#app/models/ads/category.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { TMP_DIR } from './test-database.ts'

/** Today in the platform's time zone, asked each time: a run may cross midnight there. */
export const today = () => todayInZone('America/New_York')

/** `n` consecutive dates starting `from` days after today. */
export const days = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => addDaysIso(today(), from + i))

/** A folder of this test file's own for uploads (DATA_DIR) and the default categories; the folder goes afterwards. */
export function useUploadFolder(name: string) {
  const dataDir = path.join(TMP_DIR, `${name}-${process.pid}-${Date.now().toString(36)}`)
  beforeAll(async () => {
    process.env.DATA_DIR = dataDir
    resetEnvCache()
    await ensureCategories(DEFAULT_CATEGORIES)
  })
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
}

export function solidPng(width: number, height: number, background: string) {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer()
}

/** The multipart body of POST /api/approve-event: a sample ad shown on the next three days, with the overrides. */
export function approveBody({
  eventData = {},
  selectedDates = days(3),
  totalAmount,
  eventID,
  image,
}: {
  eventData?: Record<string, unknown>
  selectedDates?: unknown
  totalAmount?: string
  eventID?: string
  image?: Blob | Buffer
} = {}) {
  const body = new FormData()
  body.set(
    'eventData',
    JSON.stringify({
      eventTitle: 'Fish Fry Friday',
      eventDescription: 'All-you-can-eat fish with two sides.',
      eventCategory: ['Food & Drink'],
      contactPerson: 'Pat Fry',
      ...eventData,
    }),
  )
  body.set('selectedDates', JSON.stringify(selectedDates))
  if (totalAmount !== undefined) body.set('totalAmount', totalAmount)
  if (eventID !== undefined) body.set('eventID', eventID)
  if (image) body.set('image', image instanceof Blob ? image : new Blob([new Uint8Array(image)]), 'fish.png')
  return body
}

/**
 * The event form as a browser posts it without JavaScript ("Preview"): `fields` in order (a list as repeated
 * fields), then `extra` (files, or anything a test adds).
 */
export function plainEventForm(
  fields: Record<string, string | string[]>,
  extra: Array<[string, string | Blob, string?]> = [],
) {
  const body = new FormData()
  body.set('intent', 'preview')
  for (const [name, value] of Object.entries(fields))
    for (const item of [value].flat()) body.append(name, item)
  for (const [name, value, filename] of extra) {
    if (typeof value === 'string') body.append(name, value)
    else body.append(name, value, filename)
  }
  return body
}
