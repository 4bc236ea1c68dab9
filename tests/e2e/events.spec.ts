import fs from 'node:fs'
import { VIDEO_MAX_BYTES } from '#app/constants.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, PNG, signInAsNewBusiness, test, waitForEventFormHydrated } from './fixtures.ts'

const today = todayInZone('America/New_York')
const dates = [addDaysIso(today, 1), addDaysIso(today, 2), addDaysIso(today, 3)]

test('an advertiser creates an ad, previews it as customers will see it, approves it, pays and waits for review', async ({
  page,
}) => {
  const account = await signInAsNewBusiness(page, 'Journey Diner')
  await page.goto('/dashboard')
  await expect(page.getByText('No active events')).toBeVisible()
  await page.getByRole('link', { name: 'Create a New Event' }).click()
  await expect(page.getByRole('heading', { name: 'Create Event Listing' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Ready to Preview' })).toHaveCount(0)

  await page.getByLabel('Title').fill('Burger Night')
  await expect(page.getByText('12/250')).toBeVisible()
  await page.getByLabel('Description').fill('Two burgers for the price of one, every Thursday.')
  await page.getByRole('checkbox', { name: 'Food & Drink' }).check()
  await expect(page.getByRole('button', { name: 'Ready to Preview' })).toBeVisible()
  for (const d of dates) await page.getByLabel(d, { exact: true }).check({ force: true })
  await expect(page.getByLabel('Total cost')).toHaveValue('$29.00')
  await page.setInputFiles('#image', { name: 'burger.png', mimeType: 'image/png', buffer: PNG })

  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  const dialog = page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
  await expect(dialog.getByRole('heading', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
  await expect(dialog.getByText('Total Cost: $29.00')).toBeVisible()
  await expect(dialog.getByText(/burger\.png/)).toBeVisible()
  await expect(dialog.getByText(account.businessName)).toBeVisible()
  await dialog.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
  await expect(page.getByText('Success!')).toBeVisible()
  await page.waitForURL('**/checkout')

  await page.goto('/dashboard')
  const card = page.getByTestId('gallery-card').filter({ hasText: 'Burger Night' })
  await expect(card).toBeVisible()
  await expect(card.getByTestId('event-status')).toHaveText('Awaiting payment')

  await page.goto('/checkout')
  await expect(page.getByText('Burger Night')).toBeVisible()
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay $29.00' }).click()
  await expect(page.getByText('Your ad will go live after administrator approval.').first()).toBeVisible()
  await page.goto('/dashboard')
  await expect(card.getByTestId('event-status')).toHaveText('Awaiting review')
})

test('the 22nd display date is refused with the spec alert, as an oversized video is, and 21 stay selected', async ({
  page,
}, testInfo) => {
  await signInAsNewBusiness(page)
  await page.goto('/dashboard/events/new')
  const alerts: string[] = []
  page.on('dialog', (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.accept()
  })
  for (let i = 0; i < 21; i++)
    await page.getByLabel(addDaysIso(today, i), { exact: true }).check({ force: true })
  await expect(page.getByTestId('dates-count')).toHaveText('21 selected')
  expect(alerts).toEqual([])

  await page.getByLabel(addDaysIso(today, 21), { exact: true }).click({ force: true })
  await expect.poll(() => alerts).toEqual(['alert: Max number for any event or special is 21 days'])
  await expect(page.getByTestId('dates-count')).toHaveText('21 selected')
  await expect(page.getByLabel(addDaysIso(today, 21), { exact: true })).not.toBeChecked()
  await expect(page.getByLabel('Total cost')).toHaveValue('$69.00')
  await expect(page.getByTestId('toast')).toHaveCount(0)

  // The video limit uses the same alert (a sparse file: Playwright will not pass a buffer this large).
  const hugeVideo = testInfo.outputPath('huge.mp4')
  fs.writeFileSync(hugeVideo, '')
  fs.truncateSync(hugeVideo, VIDEO_MAX_BYTES + 1)
  await page.setInputFiles('#video', hugeVideo)
  await expect
    .poll(() => alerts)
    .toEqual([
      'alert: Max number for any event or special is 21 days',
      'alert: Video file must be under 50MB',
    ])
  await expect(page.locator('#video')).toHaveValue('')
})

test('cancel with work entered asks first, then clears every field', async ({ page }) => {
  await signInAsNewBusiness(page)
  await page.goto('/dashboard/events/new')
  await page.getByLabel('Title').fill('Something')
  await page.getByLabel(dates[0]!, { exact: true }).check({ force: true })
  page.once('dialog', (d) => void d.dismiss())
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByLabel('Title')).toHaveValue('Something')
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByLabel('Title')).toHaveValue('')
  await expect(page.getByTestId('dates-count')).toHaveText('0 selected')
})

test('what is typed and ticked before the page’s scripts arrive is kept once they have', async ({ page }) => {
  await signInAsNewBusiness(page, 'Slow Phone Cafe')
  let releaseScripts!: () => void
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve))
  await page.route('**/*.js', async (route) => {
    await scriptsHeld
    await route.continue()
  })
  await page.goto('/dashboard/events/new', { waitUntil: 'commit' })
  await page.getByLabel('Title').fill('Typed Early')
  await page.getByLabel('Description').fill('Before the scripts came.')
  await page.getByRole('checkbox', { name: 'Arts' }).check()
  await page.getByLabel(dates[0]!, { exact: true }).check({ force: true })
  await page.getByRole('radio', { name: 'Repeat every week on:' }).check()
  releaseScripts()
  await waitForEventFormHydrated(page)

  // A change once the scripts run draws the form again: what was entered before is still there, and counted.
  await page.getByLabel(dates[1]!, { exact: true }).check({ force: true })
  await expect(page.getByTestId('dates-count')).toHaveText('2 selected')
  await expect(page.getByLabel('Title')).toHaveValue('Typed Early')
  await expect(page.getByText('11/250')).toBeVisible()
  await expect(page.getByLabel('Description')).toHaveValue('Before the scripts came.')
  await expect(page.getByRole('checkbox', { name: 'Arts' })).toBeChecked()
  await expect(page.getByLabel(dates[0]!, { exact: true })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'Repeat every week on:' })).toBeChecked()
  await expect(page.getByRole('button', { name: 'Ready to Preview' })).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the same journey works as plain forms', async ({ page }) => {
    await signInAsNewBusiness(page, 'Plain Form Bakery')
    await page.goto('/dashboard/events/new')
    await page.getByLabel('Title').fill('Bread Class')
    await page.getByLabel('Description').fill('Learn to bake sourdough at home.')
    await page.getByRole('checkbox', { name: 'Arts' }).check()
    for (const d of dates.slice(0, 2)) await page.getByLabel(d, { exact: true }).check({ force: true })
    await page.setInputFiles('#image', { name: 'loaf.png', mimeType: 'image/png', buffer: PNG })
    await page.getByRole('button', { name: 'Ready to Preview' }).click()

    await expect(page.getByRole('heading', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
    await expect(page.getByText('Total Cost: $29.00')).toBeVisible()
    await expect(page.getByText(/loaf\.png/)).toBeVisible()

    await page.getByRole('button', { name: 'Cancel Your Ad' }).click()
    await expect(page.getByLabel('Title')).toHaveValue('Bread Class')
    await expect(page.getByText('Returning to Edit')).toBeVisible()
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
    await expect(page).toHaveURL(/\/checkout$/)

    await page.goto('/dashboard')
    await expect(page.getByTestId('gallery-card').filter({ hasText: 'Bread Class' })).toBeVisible()
  })
})
