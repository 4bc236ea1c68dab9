import { expect, test } from './fixtures.ts'

test.describe('a visitor without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('finds the events near a ZIP code, nearest first, and is told about an unknown ZIP', async ({ page }) => {
    await page.goto('/calendar')
    const filters = page.getByTestId('calendar-filters')
    const grid = page.getByRole('list', { name: 'Events' })

    // The demo businesses are in Springfield, Illinois.
    await filters.locator('summary').click()
    await page.getByLabel('Near ZIP').fill('62704')
    await page.getByLabel('Within').selectOption('5')
    await page.getByLabel('Order').selectOption('nearest')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/near=62704&radius=5&sort=nearest/)
    await expect(filters.locator('summary')).toContainText('within 5 mi of 62704, nearest first')
    await expect(grid.getByRole('listitem').first()).toBeVisible()

    await filters.locator('summary').click()
    await expect(page.getByLabel('Near ZIP')).toHaveValue('62704')
    await page.getByLabel('Near ZIP').fill('90210')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('No events found. Try adjusting your filters.')).toBeVisible()

    await filters.locator('summary').click()
    await page.getByLabel('Near ZIP').fill('99999')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByRole('status')).toContainText('"99999" is not a US ZIP code we know')
  })
})
