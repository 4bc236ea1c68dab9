/**
 * An upload whose save meets a database that is closing (a shutdown that had to cut its drain, a lost connection)
 * is told the database is unavailable (503, the spec's text), never "Failed to save your event" with a 500.
 */
import { expect, inject, test } from 'vitest'
import { DATABASE_UNAVAILABLE_MESSAGE } from '#app/services/platform/database-errors.server.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as healthLoader } from '#app/routes/healthz.ts'
import { db, getDatabaseHandle, useDatabase } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { approveBody, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { callRoute } from '#tests/support/routes.ts'
import { startAsNewProcess } from '#tests/support/test-file-start.ts'

useUploadFolder('save-closing-db')

test('the database closes while a photo upload is being received: 503 with the outage text', async () => {
  const owner = await insertBusiness(db, { businessName: 'Lakeside Grill' })
  const cookie = await sessionCookieFor({ business: owner })
  const form = approveBody({ image: await solidPng(64, 48, '#e11') })
  const encoded = new Response(form)
  const bytes = new Uint8Array(await encoded.arrayBuffer())
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let reading = () => {}
  const bodyRead = new Promise<void>((resolve) => (reading = resolve))
  let pulls = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // The stream fills its first chunk at once; the second is asked for once the upload is being read, after the
      // session was checked. The database closes before the rest arrives.
      if (++pulls === 1) return controller.enqueue(bytes.subarray(0, 200))
      reading()
      await held
      controller.enqueue(bytes.subarray(200))
      controller.close()
    },
  })
  const answer = callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { Cookie: cookie, 'Content-Type': encoded.headers.get('Content-Type')! },
  } as RequestInit)
  await bodyRead
  await getDatabaseHandle().close()
  release()
  // Closed here already, so the file's clean-up has nothing left to close.
  useDatabase(undefined)
  const res = await answer
  expect(res.status).toBe(503)
  expect(((await res.json()) as { message: string }).message).toBe(DATABASE_UNAVAILABLE_MESSAGE)
})

test('the next test file in this worker starts on a database that is not away: /healthz answers 200 at once', async () => {
  // Files share their worker's modules: the outage above must not outlive its database.
  await startAsNewProcess(inject('databaseTemplate'))
  const res = await callRoute(healthLoader, '/healthz')
  expect(res.status).toBe(200)
})
