import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Locator, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { mp4Bytes } from '#tests/support/media.ts'
import { E2E_DATA_DIR } from '../../playwright.config.ts'
import {
  approveAsAdmin,
  expect,
  expectNoScripts,
  fromSite,
  PNG,
  signInAsBusiness,
  signInAsNewBusiness,
  test,
} from './fixtures.ts'

const today = todayInZone('America/New_York')

/** Every stored file of one event's photo (the photo and its srcset copies). */
function storedPhotoFiles(eventID: number) {
  const root = path.join(E2E_DATA_DIR, 'media', 'images')
  const stem = new RegExp(`^\\d{4}-\\d{2}-\\d{2}_${eventID}(-\\d+w)?\\.`)
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => stem.test(path.basename(file)))
    .map((file) => path.join(root, file))
}

/**
 * A live ad whose photo file has been removed from storage and whose video is an MP4 that passes the upload check
 * (a real `ftyp` box) but holds no playable media, so the browser cannot decode it.
 */
async function liveAdWithBrokenMedia(browser: Browser) {
  const advertiser = await browser.newPage()
  const account = await signInAsNewBusiness(advertiser, 'Broken Media Hall')
  const title = `Broken Media Night ${Date.now().toString(36)}`
  const res = await advertiser.request.post('/api/approve-event', {
    headers: fromSite(),
    multipart: {
      eventData: JSON.stringify({
        eventTitle: title,
        eventDescription: `${title}: the projector is out, but the music is on.`,
        eventCategory: ['Community'],
      }),
      selectedDates: JSON.stringify([addDaysIso(today, 1)]),
      totalAmount: '29.00',
      image: { name: 'poster.png', mimeType: 'image/png', buffer: PNG },
      video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: mp4Bytes() },
    },
  })
  expect(res.status(), await res.text()).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  await advertiser.goto('/checkout')
  await advertiser.getByLabel('Card number').fill('4242 4242 4242 4242')
  await advertiser.getByLabel('Expiry (MM/YY)').fill('12/34')
  await advertiser.getByLabel('CVC').fill('123')
  await advertiser.getByRole('button', { name: 'Pay $29.00' }).click()
  await expect(
    advertiser.getByText('Your ad will go live after administrator approval.').first(),
  ).toBeVisible()

  await approveAsAdmin(browser, eventID)
  await advertiser.close()

  const photos = storedPhotoFiles(eventID)
  expect(photos.length, 'the photo was stored').toBeGreaterThan(0)
  for (const file of photos) fs.rmSync(file)
  return { eventID, title, account }
}

/** The card's photo is hidden and the dark box with the business name shows; the video is hidden. */
async function expectCardFallbacks(card: Locator, businessName: string) {
  await expect(card.getByTestId('photo-fallback')).toBeVisible()
  await expect(card.getByTestId('photo-fallback')).toHaveText(businessName)
  await expect(card.locator('img')).toBeHidden()
  await expect(card.locator('video')).toBeHidden()
  // Hidden, not merely shrunk: nothing of the broken media takes space on the page.
  expect(
    await card.locator('img, video').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height)),
  ).toEqual([0, 0])
}

async function visit(page: Page, url: string) {
  const response = await page.goto(url)
  expect(response?.status(), url).toBe(200)
  // The framework's scripts are not on these pages: whatever reacts to the failures works without hydration.
  await expectNoScripts(page)
}

test.describe('media that fails to load on the pages without the framework’s JavaScript', () => {
  let ad: Awaited<ReturnType<typeof liveAdWithBrokenMedia>>

  test.beforeAll(async ({ browser }) => {
    ad = await liveAdWithBrokenMedia(browser)
  })

  test('the event page hides the broken photo and the undecodable video and shows the business name', async ({
    page,
  }) => {
    await visit(page, `/event/${ad.eventID}?viewMode=true`)
    const card = page.getByTestId('customer-event-card')
    await expect(card.getByRole('heading', { name: ad.title })).toBeVisible()
    await expect(card.locator('video source')).toHaveAttribute('type', 'video/mp4')
    await expectCardFallbacks(card, ad.account.businessName)
  })

  test('the public events page does the same for the ad’s card', async ({ page }) => {
    let pageNumber = 1
    let card = page.getByTestId('customer-event-card').filter({ hasText: ad.title })
    for (;;) {
      await visit(page, `/public?page=${pageNumber}`)
      if ((await card.count()) > 0) break
      const next = page.getByRole('link', { name: 'Next' })
      expect(await next.count(), `${ad.title} is listed on /public`).toBe(1)
      pageNumber++
    }
    card = page.getByTestId('customer-event-card').filter({ hasText: ad.title })
    // Photos below the first are fetched lazily: only once near the screen can one fail.
    await card.scrollIntoViewIfNeeded()
    await expectCardFallbacks(card, ad.account.businessName)
  })

  test('the calendar tile hides the broken photo and shows the title’s letter', async ({ page }) => {
    // The calendar's keyword searches descriptions, which start with the title here.
    await visit(page, `/calendar?keyword=${encodeURIComponent(ad.title)}`)
    const tile = page.getByTestId('calendar-event').filter({ hasText: ad.title })
    await expect(tile).toBeVisible()
    await expect(tile.locator('img')).toBeHidden()
    await expect(tile.getByTestId('event-letter')).toBeVisible()
    await expect(tile.getByTestId('event-letter')).toHaveText('B')
  })

  test('the advertiser’s dashboard (a hydrated page) shows the two letters in place of the broken photo', async ({
    page,
  }) => {
    await signInAsBusiness(page, {
      businessEmail: ad.account.businessEmail,
      password: ad.account.businessPassword,
    })
    await page.goto('/dashboard')
    const card = page.getByTestId('gallery-card').filter({ hasText: ad.title })
    await expect(card.getByTestId('gallery-thumb-fallback')).toBeVisible()
    await expect(card.getByTestId('gallery-thumb-fallback')).toHaveText('BR')
    await expect(card.locator('img')).toBeHidden()
  })
})
