import { expect, expectNoScripts, test } from './fixtures.ts'

test('the landing page tells advertisers what the product does and where to start', async ({ page }) => {
  await page.goto('/landing')
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    'Promote your concert, fundraiser, grand opening or special gathering in minutes',
  )
  const card = page.locator('div', { has: page.getByRole('heading', { name: 'Get Started Today' }) }).last()
  await expect(card.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute('href', '/api/login')
  await expect(page.getByText(/click Log in there/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible()
  for (const step of ['Login', 'Add Event', 'Get Featured']) {
    await expect(page.getByRole('heading', { name: step, exact: true })).toBeVisible()
  }
  await expect(page.getByRole('heading', { name: 'Why Choose Our Platform' })).toBeVisible()
  for (const benefit of ['Easy posting', 'Photos and videos', 'Flexible periods', 'Automatic cleanup']) {
    await expect(page.getByRole('heading', { name: benefit })).toBeVisible()
  }
  await expect(page.getByText(/featured for 7 or more days/).first()).toBeVisible()
  await expect(page.locator('header')).toContainText('EventShout')
  await expect(page.locator('footer')).toContainText('Every Event Deserves a Shout.')
})

test('the landing page ships no JavaScript', async ({ page }) => {
  await page.goto('/landing')
  await expectNoScripts(page)
})

test('an unknown path shows Page Not Found with status 404', async ({ page }) => {
  const response = await page.goto('/no/such/place')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible()
})

test('pages carry the security headers and a per-request script nonce', async ({ request }) => {
  const first = await request.get('/no/such/place')
  const second = await request.get('/no/such/place')
  const csp = first.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
  expect(second.headers()['content-security-policy']).not.toBe(csp)
  expect(first.headers()['x-content-type-options']).toBe('nosniff')
  expect(first.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin')
})

test('the health check reports the database', async ({ request }) => {
  const res = await request.get('/healthz')
  expect(res.status()).toBe(200)
  expect(await res.json()).toEqual({ status: 'ok', database: 'ok' })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the landing page is complete and its links work', async ({ page }) => {
    await page.goto('/landing')
    await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible()
    await page.getByRole('link', { name: 'Browse events' }).click()
    await expect(page).toHaveURL(/\/public$/)
  })
})
