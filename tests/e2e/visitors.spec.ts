import type { Page } from '@playwright/test'
import { demoAdmin, demoClinician, expect, signInAsStaff, test } from './fixtures.ts'

const PHONE = { width: 375, height: 667 }

/** How far the page is wider than the screen (0 = no sideways scrolling). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

/** The path of a live event's page, from the calendar's first 'View details'. */
async function liveEventPath(page: Page) {
  await page.goto('/calendar')
  const action = await page.locator('a[ping^="/event/"]').first().getAttribute('ping')
  const id = /^\/event\/(\d+)\/view(?:\?from=sponsored)?$/.exec(action ?? '')?.[1]
  expect(id, 'a live event on the calendar').toBeTruthy()
  return `/event/${id}?viewMode=true`
}

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: PHONE, javaScriptEnabled: false })

  test('the public pages never scroll sideways', async ({ page }) => {
    const paths = [
      '/landing',
      '/public',
      '/calendar',
      '/calendar?keyword=jazz',
      await liveEventPath(page),
      '/login',
    ]
    for (const path of paths) {
      await page.goto(path)
      expect(await sidewaysOverflow(page), path).toBe(0)
    }
  })

  test('the calendar shows its results in the first screen, the filters folded under a "Filters" disclosure', async ({
    page,
  }) => {
    await page.goto('/calendar')
    const found = page.getByRole('heading', { name: /We found \d+ event\(s\) for you!/ })
    await expect(found).toBeInViewport()
    await expect(page.getByTestId('featured-event').first()).toBeInViewport()
    await expect(page.getByLabel('Keyword')).toBeHidden()
    await page.getByTestId('calendar-filters').locator('summary').click()
    await expect(page.getByLabel('Keyword')).toBeVisible()
    // The logo once: in the site's header.
    await expect(page.getByRole('link', { name: 'EventShout' })).toHaveCount(1)
  })

  test('the moderation page and the patient records never scroll sideways', async ({ browser }) => {
    for (const [email, path] of [
      [demoAdmin.email, '/admin'],
      [demoClinician.email, '/patient-diseases'],
    ] as const) {
      const context = await browser.newContext({ viewport: PHONE })
      const page = await context.newPage()
      await signInAsStaff(page, email)
      await page.goto(path)
      await expect(page.locator('main')).toBeVisible()
      expect(await sidewaysOverflow(page), path).toBe(0)
      await context.close()
    }
  })
})

test('every page starts with a "Skip to content" link that moves the keyboard to the page itself', async ({
  page,
}) => {
  for (const path of ['/landing', '/public', '/calendar', await liveEventPath(page), '/login']) {
    await page.goto(path)
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    await expect(skip, path).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(page.locator('#content'), path).toBeFocused()
  }
})

test('the event page: the first photo is fetched first, with srcset and a reserved size', async ({
  page,
}) => {
  await page.goto(await liveEventPath(page))
  const photo = page.getByTestId('customer-event-card').locator('img').first()
  await expect(photo).toHaveAttribute('fetchpriority', 'high')
  await expect(photo).toHaveAttribute('width', /\d+/)
  await expect(photo).toHaveAttribute('height', /\d+/)
  await expect(photo).toHaveAttribute('srcset', /-480w\.webp[^,]* 480w, [^,]*-960w\.webp[^,]* 960w/)
})

test('calendar photos: the first featured one fetched first, the rest lazily, each with srcset and a size', async ({
  page,
}) => {
  await page.goto('/calendar')
  const photos = page.locator('[data-testid="featured-event"] img, [data-testid="calendar-event"] img')
  expect(await photos.count()).toBeGreaterThan(2)
  await expect(photos.first()).toHaveAttribute('fetchpriority', 'high')
  await expect(photos.first()).not.toHaveAttribute('loading', 'lazy')
  for (const photo of (await photos.all()).slice(1)) {
    await expect(photo).toHaveAttribute('loading', 'lazy')
    await expect(photo).not.toHaveAttribute('fetchpriority', 'high')
  }
  for (const photo of await photos.all()) {
    await expect(photo).toHaveAttribute('srcset', / 480w, .* 960w/)
    await expect(photo).toHaveAttribute('sizes', /\S/)
    await expect(photo).toHaveAttribute('width', /\d+/)
    await expect(photo).toHaveAttribute('height', /\d+/)
  }
})
