import type { Locator, Page } from '@playwright/test'
import { DATE_HORIZON_DAYS } from '#app/constants.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoAdmin,
  demoBusiness,
  expect,
  fromSite,
  PNG,
  signInAsBusiness,
  signInAsNewBusiness,
  signInAsStaff,
  test,
} from './fixtures.ts'

const today = todayInZone('America/New_York')

/**
 * The photo loaded (whichever srcset copy the browser chose). `decode()` rejects for a broken image; naturalWidth
 * would not do here, as it is scaled by the chosen copy's density and rounds to 0 for the tiny test image.
 */
async function expectImageShown(image: Locator) {
  await expect(image).toBeVisible()
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.currentSrc, () => '')))
    .toMatch(/\/api\/media\//)
}

/** The same URL asked for by a visitor who is not signed in (a fresh browser context). */
async function asVisitor(page: Page, url: string) {
  const context = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL })
  try {
    const res = await context.request.get(url)
    return { status: res.status(), headers: res.headers(), body: await res.body() }
  } finally {
    await context.close()
  }
}

test("an unpaid draft's photo shows in its owner's preview and is a 404 for everyone else", async ({
  page,
}) => {
  await signInAsNewBusiness(page, 'Private Bakery')
  const body = {
    eventData: JSON.stringify({
      eventTitle: 'Secret Sourdough Sale',
      eventDescription: 'Not announced yet.',
      eventCategory: ['Food & Drink'],
    }),
    selectedDates: JSON.stringify([addDaysIso(today, 2)]),
    image: { name: 'bread.png', mimeType: 'image/png', buffer: PNG },
  }
  const saved = await page.request.post('/api/approve-event', { headers: fromSite(), multipart: body })
  expect(saved.status(), await saved.text()).toBe(200)
  const { eventID } = (await saved.json()) as { eventID: number }

  await page.goto(`/event/${eventID}?viewMode=true`)
  const photo = page.locator('img[src*="/api/media/"]').first()
  await expectImageShown(photo)
  const src = (await photo.getAttribute('src'))!

  const own = await page.request.get(src)
  expect(own.status()).toBe(200)
  expect(own.headers()['cache-control']).toBe('private, no-store')

  // Asked for by the owner first, then by a visitor: nothing in between (the server's page cache) may keep a copy.
  for (const url of [src, src.split('?')[0]!, src.replace('.webp', '-480w.webp')]) {
    const res = await asVisitor(page, url)
    expect(res.status, url).toBe(404)
    expect(res.headers['cache-control']).toBe('private, no-store')
  }
  const other = await signInAsNewBusiness(page, 'Curious Neighbour')
  expect(other.businessName).toContain('Curious Neighbour')
  expect((await page.request.get(src)).status()).toBe(404)
})

test('the administrator sees the photos of the ads awaiting review; a visitor cannot fetch them', async ({
  page,
}) => {
  await signInAsStaff(page, demoAdmin.email)
  await page.goto('/admin')
  const photo = page.locator('img[src*="/api/media/"]').first()
  await expectImageShown(photo)
  const res = await asVisitor(page, (await photo.getAttribute('src'))!)
  expect(res.status).toBe(404)
})

test("a live ad's photo is public, and its owner cannot replace it without a review", async ({ page }) => {
  await signInAsBusiness(page, demoBusiness)
  const own = (await (await page.request.get('/api/events')).json()) as Array<{
    eventID: number
    businessName: string
    stillPhotoURL: string
    totalCost?: number
  }>
  const live = own.find((e) => e.businessName === demoBusiness.businessName && e.totalCost !== undefined)!
  expect(live).toBeDefined()
  const before = await asVisitor(page, live.stillPhotoURL)
  expect(before.status).toBe(200)
  expect(before.headers['cache-control']).toMatch(/^public/)

  const origin = new URL(test.info().project.use.baseURL!).origin
  const upload = await page.request.post('/api/file-storage/upload-image', {
    headers: { Origin: origin },
    multipart: {
      image: { name: 'new.png', mimeType: 'image/png', buffer: PNG },
      eventID: String(live.eventID),
    },
  })
  expect(upload.status()).toBe(409)
  expect(((await upload.json()) as { message: string }).message).toMatch(/paid for/)
  const after = await asVisitor(page, live.stillPhotoURL)
  expect(after.body.equals(before.body)).toBe(true)

  // A visitor's list of the same ads carries none of the business's dealings.
  const visitorRows = JSON.parse((await asVisitor(page, '/api/events')).body.toString()) as Array<
    Record<string, unknown>
  >
  expect(visitorRows.length).toBeGreaterThan(0)
  for (const row of visitorRows) expect(row).not.toHaveProperty('totalCost')
})

test(`the event form offers no date more than ${DATE_HORIZON_DAYS} days ahead`, async ({ page }) => {
  await signInAsNewBusiness(page)
  await page.goto('/dashboard/events/new')
  await expect(page.locator('#eventDate')).toHaveAttribute('max', addDaysIso(today, DATE_HORIZON_DAYS))
})
