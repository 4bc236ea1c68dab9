import { chromium } from '@playwright/test'
import { BOUNCE_WINDOW_MS } from '#app/constants.ts'
import { todayInZone } from '#app/utils/time.ts'
import { CHROMIUM_ARGS, findChromium } from './chromium.ts'
import {
  approveAsAdmin,
  demoAdmin,
  expect,
  paidAd,
  signInAsNewBusiness,
  signInAsStaff,
  test,
} from './fixtures.ts'

const today = todayInZone('America/New_York')
const REAL_BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

test.describe('a visitor without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('filters the calendar by keyword in any case and opens an event, recording the click', async ({
    page,
  }) => {
    await page.goto('/calendar')
    await expect(page.getByRole('heading', { name: 'Every Event Deserves a Shout.' })).toBeVisible()
    await expect(page.getByText('Discover upcoming events in your area')).toBeVisible()
    await expect(page.getByRole('heading', { name: /We found \d+ event\(s\) for you!/ })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Featured Events' })).toBeVisible()

    // On a wide screen the filters are open beside the results.
    await page.getByLabel('Keyword').fill('MAPLE STREET')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/keyword=MAPLE\+STREET/i)
    const grid = page.getByRole('list', { name: 'Events' })
    // Each tile (a tile may hold a list of its own: the ad's practical facts).
    const tiles = grid.locator(':scope > li')
    await expect(tiles.first()).toContainText('Friday Night Jazz Trio')
    for (const tile of await tiles.all()) await expect(tile).toContainText('Friday Night Jazz Trio')
    // The results say which filters are set.
    await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Keyword “MAPLE STREET”')

    await page.getByLabel('ZIP Code').fill('00000')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('No events found. Try adjusting your filters.')).toBeVisible()

    await page.getByRole('link', { name: 'Clear Filters' }).click()
    await grid.getByRole('link', { name: 'View details' }).first().click()
    await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
    await expect(page.getByTestId('customer-event-card')).toBeVisible()
  })

  test('the public events page lists live events', async ({ page }) => {
    await page.goto('/public')
    await expect(page.getByRole('heading', { name: 'Public Events' })).toBeVisible()
    await expect(page.getByText('Discover upcoming events from local businesses')).toBeVisible()
    await expect(page.getByText('Friday Night Jazz Trio').first()).toBeVisible()
  })

  test('an administrator approves and rejects paid ads with plain forms', async ({ browser }) => {
    const advertiser = await browser.newPage({ javaScriptEnabled: true })
    await signInAsNewBusiness(advertiser, 'Moderated Club')
    const approveID = await paidAd(advertiser, 'Approve Me Social')
    const rejectID = await paidAd(advertiser, 'Reject Me Social')

    const visitor = await browser.newPage()
    expect((await visitor.goto(`/event/${approveID}?viewMode=true`))?.status()).toBe(404)
    // An anonymous visitor's calendar page is kept in the shared page cache until a moderation decision.
    await visitor.goto('/calendar?keyword=Approve+Me+Social')
    await expect(visitor.getByText('No events found. Try adjusting your filters.')).toBeVisible()

    const admin = await browser.newPage({ javaScriptEnabled: false })
    await signInAsStaff(admin, demoAdmin.email)
    await admin.goto('/admin')
    await expect(admin.getByRole('heading', { name: 'Content Moderation Review' })).toBeVisible()
    await expect(admin.getByLabel('Upload date')).toHaveValue(today)
    const approveItem = admin.getByRole('listitem').filter({ hasText: 'Approve Me Social' })
    await approveItem.getByRole('button', { name: 'Approve' }).click()
    await expect(admin.getByRole('listitem').filter({ hasText: 'Approve Me Social' })).toHaveCount(0)
    const rejectItem = admin.getByRole('listitem').filter({ hasText: 'Reject Me Social' })
    await rejectItem.getByLabel(/^Reason/).fill('Not a local event')
    await rejectItem.getByRole('button', { name: 'Reject' }).click()
    await expect(admin.getByRole('listitem').filter({ hasText: 'Reject Me Social' })).toHaveCount(0)

    expect((await visitor.goto(`/event/${approveID}?viewMode=true`))?.status()).toBe(200)
    await expect(visitor.getByRole('heading', { name: 'Approve Me Social' })).toBeVisible()
    await visitor.goto('/calendar?keyword=Approve+Me+Social')
    await expect(visitor.getByRole('heading', { name: 'We found 1 event(s) for you!' })).toBeVisible()
    expect((await visitor.goto(`/event/${rejectID}?viewMode=true`))?.status()).toBe(404)

    await advertiser.goto('/dashboard')
    await expect(
      advertiser
        .getByTestId('gallery-card')
        .filter({ hasText: 'Approve Me Social' })
        .getByTestId('event-status'),
    ).toHaveText('Live')
    await expect(
      advertiser
        .getByTestId('gallery-card')
        .filter({ hasText: 'Reject Me Social' })
        .getByTestId('event-status'),
    ).toHaveText('Rejected')
  })

  test('the moderation page is for administrators only', async ({ page }) => {
    await signInAsNewBusiness(page)
    expect((await page.goto('/admin'))?.status()).toBe(403)
  })
})

test('leaving an event within 5 seconds sends exactly one bounce beacon; staying longer sends none', async ({
  page,
}) => {
  // Requests sent while a page unloads are not always reported to the test, so the page counts its own beacons.
  await page.addInitScript(() => {
    const send = navigator.sendBeacon.bind(navigator)
    navigator.sendBeacon = (url, data) => {
      if (String(url).includes('/track-bounce')) {
        localStorage.setItem('beacons', String(Number(localStorage.getItem('beacons') ?? '0') + 1))
      }
      return send(url, data)
    }
  })
  const beacons = () => page.evaluate(() => Number(localStorage.getItem('beacons') ?? '0'))
  await page.goto('/calendar')
  const action = await page
    .getByRole('list', { name: 'Events' })
    .getByRole('listitem')
    .first()
    .locator('a[ping]')
    .first()
    .getAttribute('ping')
  const eventID = action?.match(/\d+/)?.[0]
  expect(eventID).toBeTruthy()

  await page.goto(`/event/${eventID}?viewMode=true`)
  await page.goto('/landing')
  expect(await beacons()).toBe(1)

  // The page's own clock runs past the bounce window, so the visit lasts longer than it without a sleep.
  await page.clock.install()
  await page.goto(`/event/${eventID}?viewMode=true`)
  await page.clock.fastForward(BOUNCE_WINDOW_MS + 500)
  await page.goto('/landing')
  expect(await beacons()).toBe(1)
})

test('a visitor with JavaScript opens a new ad from the calendar and leaves at once: its advertiser sees one click and one bounce', async ({
  browser,
}) => {
  const advertiser = await browser.newPage()
  await signInAsNewBusiness(advertiser, 'Tracked Club')
  const title = `Tracked Social ${Date.now().toString(36)}`
  const eventID = await paidAd(advertiser, title)
  await approveAsAdmin(browser, eventID)

  // A visitor's everyday browser: a headless browser's own user agent is, rightly, not counted. The whole browser says
  // so, because a beacon sent while a page unloads leaves with the browser's user agent, not a page's override.
  const visitorBrowser = await chromium.launch({
    executablePath: findChromium(),
    args: [...CHROMIUM_ARGS, `--user-agent=${REAL_BROWSER}`],
  })
  try {
    const visitor = await visitorBrowser.newPage({ baseURL: test.info().project.use.baseURL })
    await visitor.goto(`/calendar?keyword=${encodeURIComponent(title)}`)
    await expect(visitor.getByRole('heading', { name: 'We found 1 event(s) for you!' })).toBeVisible()
    await visitor.getByRole('list', { name: 'Events' }).getByRole('link', { name: 'View details' }).click()
    await expect(visitor).toHaveURL(new RegExp(`/event/${eventID}-[a-z0-9-]+$`))
    await expect(visitor.getByRole('heading', { name: title })).toBeVisible()
    await visitor.goto('/landing')

    const card = advertiser.getByTestId('gallery-card').filter({ hasText: title })
    await expect(async () => {
      await advertiser.goto('/dashboard')
      await expect(card.getByTestId('event-clicks')).toHaveText('1', { timeout: 500 })
      await expect(card.getByTestId('event-bounces')).toHaveText('1', { timeout: 500 })
    }).toPass({ timeout: 10_000 })
  } finally {
    await visitorBrowser.close()
  }
})
