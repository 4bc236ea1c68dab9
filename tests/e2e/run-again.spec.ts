import type { Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, signInAsBusiness, test, waitForEventFormHydrated } from './fixtures.ts'
import { runAgainOwners } from './run-again-data.ts'

const today = todayInZone('America/New_York')

async function pay(page: Page) {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay $29.00' }).click()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`run again ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('an ended ad runs again as a new ad, with its photo, through the form, the preview and checkout', async ({
      page,
    }) => {
      const owner = javaScriptEnabled ? runAgainOwners.withJs : runAgainOwners.withoutJs
      await signInAsBusiness(page, { businessEmail: owner.businessEmail, password: owner.password })
      await page.goto('/dashboard')
      const ended = page.getByTestId('gallery-card').filter({ hasText: owner.adTitle })
      await expect(ended.getByTestId('event-status')).toHaveText('Ended')
      const originalHref = await ended
        .getByRole('link', { name: /Analytics and history/ })
        .getAttribute('href')
      const originalID = /\/dashboard\/events\/(\d+)$/.exec(originalHref ?? '')?.[1]

      if (javaScriptEnabled) {
        await ended.getByRole('button', { name: `Run again ${owner.adTitle}` }).click()
      } else {
        // The ad's own page offers it too (a plain HTML page).
        await page.goto(`/dashboard/events/${originalID}`)
        await page.getByRole('button', { name: `Run again ${owner.adTitle}` }).click()
      }
      await expect(page).toHaveURL(/\/dashboard\/events\/\d+\/edit$/)
      const copyID = /\/dashboard\/events\/(\d+)\/edit$/.exec(page.url())![1]!
      expect(copyID).not.toBe(originalID)
      await expect(page.getByTestId('toast')).toContainText('Your ad is ready to run again')
      await expect(page.getByLabel('Title')).toHaveValue(owner.adTitle)
      await expect(page.getByRole('checkbox', { name: 'Concert' })).toBeChecked()
      await expect(page.getByTestId('dates-count')).toHaveText('0 selected')

      // "Run again" is a plain form, so the edit page arrives as a new document.
      if (javaScriptEnabled) await waitForEventFormHydrated(page)
      await page.getByLabel(addDaysIso(today, 3), { exact: true }).check({ force: true })
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      const card = page.getByTestId('customer-event-card')
      await expect(card.getByRole('heading', { name: owner.adTitle })).toBeVisible()
      // The photo is the new ad's own copy.
      await expect(card.getByRole('img')).toHaveAttribute('src', new RegExp(`_${copyID}\\.webp`))
      await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
      await page.waitForURL('**/checkout')
      await pay(page)
      await expect(
        javaScriptEnabled
          ? page.getByText('Your ad will go live after administrator approval.').first()
          : page.getByTestId('toast'),
      ).toBeVisible()

      await page.goto('/dashboard')
      const cards = page.getByTestId('gallery-card').filter({ hasText: owner.adTitle })
      await expect(cards).toHaveCount(2)
      await expect(cards.getByTestId('event-status')).toHaveText(['Awaiting review', 'Ended'])
    })
  })
}
