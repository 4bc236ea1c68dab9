import type { Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, signInAsNewBusiness, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const date = addDaysIso(today, 2)

async function fillTextAndCategory(page: Page, title: string) {
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill(`All about ${title}.`)
  await page.getByRole('checkbox', { name: 'Concert' }).check()
}

async function contactEmail(page: Page, value: string) {
  const details = page.locator('details', { hasText: 'Contact for this event (optional)' })
  if (!(await details.getAttribute('open'))) await page.getByText('Contact for this event (optional)').click()
  await page.getByLabel('Contact email').fill(value)
}

test("with JavaScript the form names each problem at its field, by the server's rules, before anything is sent", async ({
  page,
}) => {
  await signInAsNewBusiness(page, 'Checked Form Hall')
  await page.goto('/dashboard/events/new')
  await fillTextAndCategory(page, 'Checked Night')
  await contactEmail(page, 'not-an-address')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()

  await expect(page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })).toHaveCount(0)
  const dates = page.getByRole('group', { name: 'Display dates' })
  await expect(dates.getByRole('alert')).toHaveText('Please choose at least one display date')
  await expect(page.getByTestId('toast').filter({ hasText: 'Choose your dates' })).toBeVisible()
  const email = page.getByLabel('Contact email')
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Please enter a valid email address')).toBeVisible()

  // Fixing a field clears its message as it is fixed.
  await page.getByLabel(date, { exact: true }).check({ force: true })
  await expect(dates.getByRole('alert')).toHaveCount(0)
  await email.fill('pat@example.com')
  await expect(email).not.toHaveAttribute('aria-invalid')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  await expect(page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
})

test('a problem only the server finds comes back to its field when the ad is approved', async ({ page }) => {
  await signInAsNewBusiness(page, 'Server Check Hall')
  await page.goto('/dashboard/events/new')
  await fillTextAndCategory(page, 'Server Check Night')
  await page.getByLabel(date, { exact: true }).check({ force: true })
  // The browser's address check is the looser one: a one-letter top-level domain passes it, not the server's.
  await contactEmail(page, 'pat@example.c')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()

  await expect(page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })).toHaveCount(0)
  await expect(page.getByLabel('Contact email')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Contact email')).toHaveAccessibleDescription(
    'Please enter a valid email address',
  )
  await expect(page).toHaveURL(/\/dashboard\/events\/new$/)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test("the server's problems are shown at their fields, and what was typed is still there", async ({
    page,
  }) => {
    await signInAsNewBusiness(page, 'Plain Check Hall')
    await page.goto('/dashboard/events/new')
    await fillTextAndCategory(page, 'Plain Check Night')
    await page.getByRole('button', { name: 'Ready to Preview' }).click()

    await expect(page.getByRole('heading', { name: 'Create Event Listing' })).toBeVisible()
    await expect(page.getByRole('group', { name: 'Display dates' }).getByRole('alert')).toHaveText(
      'Please choose at least one display date',
    )
    await expect(page.getByLabel('Title')).toHaveValue('Plain Check Night')
    await expect(page.getByLabel('Description')).toHaveValue('All about Plain Check Night.')
    await expect(page.getByRole('checkbox', { name: 'Concert' })).toBeChecked()
  })
})
