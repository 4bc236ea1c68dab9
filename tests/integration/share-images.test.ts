/**
 * A live event's share images: the page's og:image and its structured data's crops answer images of their exact
 * sizes, drawn once and then read from media storage (this file also runs in the `s3` project, against a bucket),
 * a new title is a new image, and an event that is not live has none.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { eventSeoMeta, type EventSeo } from '#app/models/ads/event-seo.ts'
import { loader as eventLoader } from '#app/routes/event.$id.tsx'
import { loader as shareImageLoader } from '#app/routes/event.$id_.share.$image.ts'
import { encodePhoto } from '#app/services/media/media-content.server.ts'
import { mediaRoot } from '#app/services/media/media-storage.server.ts'
import { mediaStorage, stageFiles, storeEventMedia } from '#app/services/media/media.server.ts'
import { deleteShareImagesOfEventsNotLive } from '#app/services/media/share-images.server.ts'
import { shareImagesDrawn } from '#app/services/platform/metrics.server.ts'
import { db } from '#db/client.server.ts'
import { events, type Business, type Event } from '#db/schema.ts'
import { days, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('share-images')

const BRAND_600 = { r: 0xc2, g: 0x41, b: 0x0c }
let owner: Business

beforeAll(async () => {
  owner = await insertBusiness(db)
})

/** Stores a photo for the event the way a saved upload is stored (re-encoded WebP and its copies). */
async function givePhoto(event: Event, background: string) {
  const scratch = path.join(mediaRoot(), 'tmp')
  fs.mkdirSync(scratch, { recursive: true })
  const input = path.join(scratch, `share-photo-${event.eventID}.png`)
  fs.writeFileSync(input, await solidPng(1600, 1000, background))
  const encoded = await encodePhoto(input, path.join(scratch, `share-photo-${event.eventID}`))
  fs.rmSync(input)
  const staged = await stageFiles({
    kind: 'photo',
    size: fs.statSync(encoded.main).size,
    mime: 'image/png',
    ext: 'webp',
    originalName: 'photo.png',
    path: encoded.main,
    variants: encoded.variants,
  })
  const stored = await storeEventMedia({
    eventID: event.eventID,
    createdDate: event.createdDate,
    file: staged,
  })
  await db.update(events).set({ stillPhotoURL: stored.url }).where(eq(events.eventID, event.eventID))
}

async function pageSeo(eventID: number) {
  const response = await callRoute(eventLoader, `/event/${eventID}?viewMode=true`, {
    params: { id: String(eventID) },
  })
  expect(response.status).toBe(200)
  const { seo } = (await response.json()) as { seo: EventSeo }
  return seo
}

/** The page's schema.org nodes (one per date of the event). */
function jsonLdNodes(seo: EventSeo) {
  return [seo.jsonLd].flat() as Array<Record<string, unknown>>
}

function metaContent(seo: EventSeo, property: string) {
  const tags = eventSeoMeta(seo) as Array<Record<string, unknown>>
  return tags.find((tag) => tag.property === property || tag.name === property)?.content as string | undefined
}

/** GETs a share image the page names (an absolute URL on the test origin), through its route. */
function getImage(url: string, init: RequestInit = {}) {
  const { pathname, search } = new URL(url)
  const [, id, image] = /^\/event\/([^/]+)\/share\/([^/]+)$/.exec(pathname) ?? []
  return callRoute(shareImageLoader, `${pathname}${search}`, { params: { id: id!, image: image! }, ...init })
}

async function imageOf(response: Response) {
  expect(response.status).toBe(200)
  const bytes = Buffer.from(await response.arrayBuffer())
  const { format, width, height } = await sharp(bytes).metadata()
  const { dominant } = await sharp(bytes).stats()
  return { format, width, height, dominant, contentType: response.headers.get('Content-Type') }
}

async function drawnCount() {
  return (await shareImagesDrawn.get()).values.reduce((sum, v) => sum + v.value, 0)
}

async function storedShareImages(eventID: number) {
  const keys: string[] = []
  for await (const { key } of mediaStorage().list(`share/${eventID}/`)) keys.push(key)
  return keys.sort()
}

const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }) =>
  Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) < 40

describe('an event with a photo', () => {
  let event: Event
  beforeAll(async () => {
    event = await insertTestEvent(owner, { eventTitle: 'Harbour Lights Parade', showAdOnDates: days(2) })
    await givePhoto(event, '#1d4ed8')
  })

  test('og:image is a 1200×630 JPEG cropped from its photo, described by its meta tags', async () => {
    const seo = await pageSeo(event.eventID)
    const url = metaContent(seo, 'og:image')!
    expect(url).toMatch(
      new RegExp(`^http://localhost/event/${event.eventID}/share/card\\.jpg\\?v=[0-9a-f]{16}$`),
    )
    expect(metaContent(seo, 'og:image:type')).toBe('image/jpeg')
    expect(metaContent(seo, 'og:image:width')).toBe('1200')
    expect(metaContent(seo, 'og:image:height')).toBe('630')
    expect(metaContent(seo, 'og:image:alt')).toBe('Harbour Lights Parade')
    expect(metaContent(seo, 'twitter:card')).toBe('summary_large_image')
    expect(metaContent(seo, 'twitter:image')).toBe(url)

    const response = await getImage(url)
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    const image = await imageOf(response)
    expect(image).toMatchObject({ contentType: 'image/jpeg', format: 'jpeg', width: 1200, height: 630 })
    expect(near(image.dominant, { r: 0x1d, g: 0x4e, b: 0xd8 })).toBe(true)
  })

  test('the structured data lists its 16:9, 4:3 and 1:1 crops, each 1200 wide', async () => {
    const seo = await pageSeo(event.eventID)
    const nodes = jsonLdNodes(seo)
    expect(nodes.length).toBeGreaterThan(0)
    const image = nodes[0]!.image as string[]
    for (const node of nodes) expect(node.image).toEqual(image)
    expect(image).toHaveLength(3)
    const sizes = []
    for (const url of image) {
      const { width, height, format } = await imageOf(await getImage(url))
      expect(format).toBe('jpeg')
      expect(width! * height!).toBeGreaterThanOrEqual(50_000)
      sizes.push([width, height])
    }
    expect(sizes).toEqual([
      [1200, 675],
      [1200, 900],
      [1200, 1200],
    ])
  })

  test('a second request reads the stored image: nothing is drawn again', async () => {
    const url = metaContent(await pageSeo(event.eventID), 'og:image')!
    await imageOf(await getImage(url))
    const [key] = (await storedShareImages(event.eventID)).filter((k) => k.includes('/card-'))
    const before = { drawn: await drawnCount(), stored: await mediaStorage().head(key!) }
    const again = await getImage(url)
    await imageOf(again)
    expect(await drawnCount()).toBe(before.drawn)
    expect(await mediaStorage().head(key!)).toEqual(before.stored)
    // A client holding it asks whether it changed, and it did not.
    const etag = again.headers.get('ETag')!
    expect((await getImage(url, { headers: { 'If-None-Match': etag } })).status).toBe(304)
  })

  test('a new title keeps its photo card, which does not show the title', async () => {
    const url = metaContent(await pageSeo(event.eventID), 'og:image')
    await db
      .update(events)
      .set({ eventTitle: 'Harbour Lights Parade 2026' })
      .where(eq(events.eventID, event.eventID))
    expect(metaContent(await pageSeo(event.eventID), 'og:image')).toBe(url)
  })
})

describe('an event without a photo', () => {
  let event: Event
  beforeAll(async () => {
    event = await insertTestEvent(owner, {
      eventTitle: 'Quilting <Circle> & "Friends"',
      showAdOnDates: days(2),
    })
  })

  test('og:image is a 1200×630 card of its title on the brand colour; the structured data has no image', async () => {
    const seo = await pageSeo(event.eventID)
    expect(jsonLdNodes(seo).length).toBeGreaterThan(0)
    for (const node of jsonLdNodes(seo)) expect(node).not.toHaveProperty('image')
    const image = await imageOf(await getImage(metaContent(seo, 'og:image')!))
    expect(image).toMatchObject({ contentType: 'image/jpeg', format: 'jpeg', width: 1200, height: 630 })
    expect(near(image.dominant, BRAND_600)).toBe(true)
  })

  test('its first requests at once draw it once', async () => {
    const other = await insertTestEvent(owner, { showAdOnDates: days(2) })
    const url = metaContent(await pageSeo(other.eventID), 'og:image')!
    const before = await drawnCount()
    const answers = await Promise.all([getImage(url), getImage(url), getImage(url)])
    for (const answer of answers) await imageOf(answer)
    expect(await drawnCount()).toBe(before + 1)
  })

  test('a new title is a new image at a new address; the old address leads there and the old image goes', async () => {
    const oldUrl = metaContent(await pageSeo(event.eventID), 'og:image')!
    await imageOf(await getImage(oldUrl))
    const [oldKey] = await storedShareImages(event.eventID)

    await db
      .update(events)
      .set({ eventTitle: 'Quilting Circle, Autumn' })
      .where(eq(events.eventID, event.eventID))
    const newUrl = metaContent(await pageSeo(event.eventID), 'og:image')!
    expect(newUrl).not.toBe(oldUrl)

    const moved = await getImage(oldUrl)
    expect(moved.status).toBe(302)
    expect(moved.headers.get('Location')).toBe(new URL(newUrl).pathname + new URL(newUrl).search)

    const before = await drawnCount()
    const image = await imageOf(await getImage(newUrl))
    expect(image).toMatchObject({ width: 1200, height: 630 })
    expect(await drawnCount()).toBe(before + 1)
    const stored = await storedShareImages(event.eventID)
    expect(stored).toHaveLength(1)
    expect(stored).not.toContain(oldKey)
  })
})

describe('who gets a share image', () => {
  test('an event that is not live has none: awaiting review, ended, taken down, unknown', async () => {
    const live = await insertTestEvent(owner, { showAdOnDates: days(1) })
    const url = new URL(metaContent(await pageSeo(live.eventID), 'og:image')!)
    const hidden = [
      await insertTestEvent(owner, { showAdOnDates: days(2), eventStatus: 'pending' }),
      await insertTestEvent(owner, { showAdOnDates: days(2, -10) }),
      await insertTestEvent(owner, { showAdOnDates: days(2), eventStatus: 'taken_down' }),
    ]
    for (const event of hidden) {
      for (const image of ['card.jpg', '1x1.jpg']) {
        const response = await callRoute(
          shareImageLoader,
          `/event/${event.eventID}/share/${image}${url.search}`,
          {
            params: { id: String(event.eventID), image },
          },
        )
        expect(response.status, `${event.eventStatus} ${image}`).toBe(404)
        expect(response.headers.get('Cache-Control')).toBe('private, no-store')
      }
    }
    for (const [id, image] of [
      ['999999999', 'card.jpg'],
      [String(live.eventID), 'poster.jpg'],
      [String(live.eventID), 'card.png'],
    ] as const) {
      const response = await callRoute(shareImageLoader, `/event/${id}/share/${image}${url.search}`, {
        params: { id, image },
      })
      expect(response.status, `${id} ${image}`).toBe(404)
    }
  })

  test('the images of an event no longer live are swept; a live one keeps its own', async () => {
    const ending = await insertTestEvent(owner, { showAdOnDates: days(2) })
    const staying = await insertTestEvent(owner, { showAdOnDates: days(2) })
    for (const event of [ending, staying])
      await imageOf(await getImage(metaContent(await pageSeo(event.eventID), 'og:image')!))
    await db.update(events).set({ eventStatus: 'taken_down' }).where(eq(events.eventID, ending.eventID))

    expect(await deleteShareImagesOfEventsNotLive()).toBeGreaterThanOrEqual(1)
    expect(await storedShareImages(ending.eventID)).toEqual([])
    expect(await storedShareImages(staying.eventID)).toHaveLength(1)
  })
})
