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

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('a draft of the older event form (no category) says so on the dashboard and at checkout, and links to its edit form', async ({
      page,
    }) => {
      await signInAsNewBusiness(page, 'Older Form Hall')
      const title = `Older Form Night ${Date.now().toString(36)}`
      const saved = await page.request.post('/api/events', {
        headers: fromSite(),
        data: {
          eventTitle: title,
          eventDescription: 'Posted with the older form.',
          eventDate: addDaysIso(today, 4),
          startTime: '19:00',
          endTime: '21:00',
          location: 'Hall B',
          ticketPrice: '5',
          ticketPurchase: 'https://tickets.example/older',
          websiteLink: 'https://hall.example',
          targetAudience: 'All Ages',
          contactName: 'Olive Older',
          contactPhone: '2175550123',
          contactEmail: 'olive@hall.example',
          supportingActs: 'None',
          adPeriodDays: 7,
        },
      })
      expect(saved.status(), await saved.text()).toBe(201)
      const { id } = (await saved.json()) as { id: number }

      await page.goto('/dashboard')
      const card = page.getByTestId('gallery-card').filter({ hasText: title })
      await expect(card.getByTestId('category-needed')).toHaveText(/Needs a category before checkout\./)

      await page.goto(`/checkout?eventID=${id}`)
      await expect(
        page.getByText('This ad has no category yet: choose one in Edit Event before checkout.').first(),
      ).toBeVisible()

      await page.goto('/dashboard')
      await card.getByRole('link', { name: /Choose one/ }).click()
      await expect(page).toHaveURL(new RegExp(`/dashboard/events/${id}/edit$`))
    })
  })
}
