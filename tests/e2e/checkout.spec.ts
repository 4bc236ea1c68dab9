import type { Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, fromSite, signInAsNewBusiness, test } from './fixtures.ts'

const today = todayInZone('America/New_York')

/** Saves an ad through the same call the create form makes, which leaves the payment data in the session. */
async function approveAd(page: Page, title: string) {
  const res = await page.request.post('/api/approve-event', {
    headers: fromSite(),
    multipart: {
      eventData: JSON.stringify({
        eventTitle: title,
        eventDescription: 'A night of live music and local food.',
        eventCategory: ['Concert'],
      }),
      selectedDates: JSON.stringify([addDaysIso(today, 2), addDaysIso(today, 3)]),
      totalAmount: '29.00',
    },
  })
  expect(res.status(), await res.text()).toBe(200)
}

async function pay(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card)
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay $29.00' }).click()
}

test('a declined card can be retried; a good card pays and the ad waits for review', async ({ page }) => {
  await signInAsNewBusiness(page, 'Checkout Hall')
  await approveAd(page, 'Summer Concert')
  await page.goto('/checkout')
  await expect(page.getByRole('heading', { name: 'Complete Your Payment' })).toBeVisible()
  await expect(page.getByText('Test mode — no real charge')).toBeVisible()
  await expect(page.getByText('Summer Concert')).toBeVisible()

  await pay(page, '4000 0000 0000 0002')
  await expect(page.getByTestId('toast')).toContainText('Payment Failed')
  await expect(page.getByTestId('toast')).toContainText('Your card was declined.')
  await expect(page.getByRole('button', { name: 'Pay $29.00' })).toBeVisible()

  await pay(page, '4242 4242 4242 4242')
  await expect(page.getByText('Your ad will go live after administrator approval.').first()).toBeVisible()
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/dashboard', { timeout: 10_000 })

  await page.goto('/dashboard')
  const card = page.getByTestId('gallery-card').filter({ hasText: 'Summer Concert' })
  await expect(card.getByTestId('event-status')).toHaveText('Awaiting review')
})

test('cancel clears the payment data and returns home', async ({ page }) => {
  await signInAsNewBusiness(page)
  await approveAd(page, 'Cancelled Gig')
  await page.goto('/checkout')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/dashboard')
  await page.goto('/checkout')
  await expect(page.getByTestId('toast')).toContainText('No Event Data')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the test card form pays with a plain post', async ({ page }) => {
    await signInAsNewBusiness(page, 'No Script Pub')
    await approveAd(page, 'Quiet Night')
    await page.goto('/checkout')
    await pay(page, '4242424242424242')
    await expect(page.getByTestId('toast')).toContainText('Payment Successful')
    await page.goto('/dashboard')
    await expect(page.getByTestId('gallery-card').filter({ hasText: 'Quiet Night' }).getByTestId('event-status')).toHaveText(
      'Awaiting review',
    )
  })
})
