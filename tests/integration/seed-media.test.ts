/**
 * The demo seed stores its photos through the app's media storage, so they are there with either backend (this file
 * also runs in the `s3` project, against a bucket).
 */
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { loader as mediaLoader } from '#app/routes/api.media.$filename.ts'
import { mediaStorage } from '#app/services/media/media.server.ts'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { seedDemoData } from '#db/seed.ts'
import { useUploadFolder } from '#tests/support/ad-submission.ts'
import { photoSrcSet } from '#app/utils/media-types.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('seed-media')

test('the seeded demo photos are in media storage and served at their URLs', async () => {
  const result = await seedDemoData(db, {
    putMedia: (key, bytes, contentType) => mediaStorage().put(key, Readable.from([bytes]), contentType),
    timeZone: 'America/New_York',
  })
  expect(result.seeded).toBe(true)
  const live = await db.select().from(events).where(eq(events.eventStatus, 'approved'))
  expect(live.length).toBeGreaterThan(0)
  for (const event of live) {
    expect(event.stillPhotoURL).toMatch(/^\/api\/media\//)
    // The photo and each copy its srcset offers.
    for (const url of photoSrcSet(event.stillPhotoURL).split(', ').map((c) => c.split(' ')[0]!)) {
      const filename = url.replace('/api/media/', '').split('?')[0]!
      const response = await callRoute(mediaLoader, url, { params: { filename } })
      expect(response.status, url).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/webp')
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100)
    }
  }
}, 120_000)
