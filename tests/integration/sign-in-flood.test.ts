/**
 * Forty sign-ins at once with new emails, against the running server: password hashing is bounded, so the thread
 * pool that media reads share stays free (a live ad's photo keeps coming) and the excess gets a quick 503 with
 * Retry-After instead of a queue of seconds. How fast the photo comes meanwhile is a budget, measured by
 * `npm run bench:signin-flood`, not here.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { mediaKey } from '#app/utils/media-types.ts'
import { mediaDate } from '#app/services/media/media.server.ts'
import { putStored } from '#tests/support/media-storage.ts'
import { db } from '#db/client.server.ts'
import { days, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { startRunningServer } from '#tests/support/running-server.ts'

const PARALLEL = 40
let base = ''
let photoUrl = ''

useUploadFolder('sign-in-flood')

beforeAll(async () => {
  const owner = await insertBusiness(db)
  const event = await insertTestEvent(owner, { showAdOnDates: days(2) })
  const key = mediaKey({
    kind: 'photo',
    date: mediaDate(event.createdDate),
    id: event.eventID,
    ext: 'webp',
  })
  await putStored(key, crypto.randomBytes(256 * 1024))
  base = await startRunningServer()
  photoUrl = `${base}/api/media/${path.basename(key)}`
})

function signIn(i: number) {
  return fetch(`${base}/api/business/login`, {
    method: 'POST',
    body: JSON.stringify({ email: `flood-${i}-${Date.now()}@nobody.example`, password: 'not-the-password' }),
    headers: { 'Content-Type': 'application/json' },
  })
}

async function readPhoto() {
  const res = await fetch(photoUrl)
  expect(res.status).toBe(200)
  return (await res.arrayBuffer()).byteLength
}

test(`${PARALLEL} parallel sign-ins leave a live photo readable and turn the excess away with 503 + Retry-After`, async () => {
  expect(await readPhoto()).toBe(256 * 1024)
  const flood = Promise.all(Array.from({ length: PARALLEL }, (_, i) => signIn(i)))
  for (let i = 0; i < 10; i++) expect(await readPhoto()).toBe(256 * 1024)
  const answers = await flood
  const statuses = answers.map((r) => r.status)
  expect(
    statuses.every((s) => s === 401 || s === 503),
    statuses.join(','),
  ).toBe(true)
  const busy = answers.filter((r) => r.status === 503)
  expect(busy.length).toBeGreaterThan(0)
  expect(Number(busy[0]!.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(await busy[0]!.json()).toMatchObject({ message: expect.stringMatching(/try again/i) })
})
