import { expect, test } from './fixtures.ts'

test.describe('a visitor without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('finds the events near a ZIP code, nearest first, and is told about an unknown ZIP', async ({
    page,
  }) => {
    await page.goto('/calendar')
    const active = page.getByRole('list', { name: 'Active filters' })
    const grid = page.getByRole('list', { name: 'Events' })

    // The demo businesses are in Springfield, Illinois; on a wide screen the filters are open beside the results.
    await page.getByLabel('Near ZIP').fill('62704')
    await page.getByLabel('Within').selectOption('5')
    await page.getByLabel('Order').selectOption('nearest')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/near=62704&radius=5&sort=nearest/)
    await expect(active).toContainText('within 5 mi of 62704, nearest first')
    await expect(grid.getByRole('listitem').first()).toBeVisible()

    await expect(page.getByLabel('Near ZIP')).toHaveValue('62704')
    await page.getByLabel('Near ZIP').fill('90210')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('No events found. Try adjusting your filters.')).toBeVisible()

    await page.getByLabel('Near ZIP').fill('99999')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByRole('status')).toContainText('"99999" is not a US ZIP code we know')
  })
})

test.describe('a visitor whose browser shares its location', () => {
  // Downtown Springfield, Illinois, where the demo businesses are.
  test.use({ geolocation: { latitude: 39.7817, longitude: -89.6501 }, permissions: ['geolocation'] })

  test('"Use my location" fills in the closest ZIP and keeps the other filters; the position is in no URL', async ({
    page,
  }) => {
    const urls: string[] = []
    page.on('request', (request) => urls.push(request.url()))
    await page.goto('/calendar?category=Concert')
    await page.getByRole('button', { name: 'Use my location' }).click()
    await expect(page).toHaveURL(/\/calendar\?category=Concert&radius=10&sort=soonest&near=627\d\d$/)
    await expect(page.getByRole('list', { name: 'Events' }).getByRole('listitem').first()).toBeVisible()
    await expect(page.getByLabel('Near ZIP')).toHaveValue(/^627\d\d$/)
    expect(urls.filter((url) => /lat=|lng=|39\.78|89\.65/.test(url))).toEqual([])
  })
})

test.describe('a visitor whose browser keeps its location to itself', () => {
  test.use({ permissions: [] })

  test('is told so beside the button, and can still type a ZIP', async ({ page }) => {
    await page.goto('/calendar')
    await page.getByRole('button', { name: 'Use my location' }).click()
    await expect(
      page.getByText('Your browser did not share your location. Enter a ZIP code instead.'),
    ).toBeVisible()
    await expect(page.getByLabel('Near ZIP')).toBeEditable()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('there is no "Use my location" button to press', async ({ page }) => {
    await page.goto('/calendar')
    await expect(page.getByLabel('Near ZIP')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Use my location' })).toBeHidden()
  })
})
