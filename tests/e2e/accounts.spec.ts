import { SIGNUP_MIN_FILL_MS } from '#app/constants.ts'
import { demoBusiness, expect, signInAsBusiness, test, waitForFormStampAge } from './fixtures.ts'

function uniqueEmail(tag: string) {
  return `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
}

async function fillRegistration(page: import('@playwright/test').Page, email: string) {
  await page.getByLabel('Business Name').fill('Corner Books')
  await page.getByLabel('Contact Name').fill('Ada Reader')
  await page.getByLabel('Business Phone').fill('2175550111')
  await page.getByLabel('Address').fill('5 Library Lane')
  await page.getByLabel('City').fill('Springfield')
  await page.getByLabel('State').fill('IL')
  await page.getByLabel('ZIP Code').fill('62701')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('booksrule')
  await page.getByLabel('Verify Password').fill('booksrule')
}

test('sign-in checks run in the spec order with the exact toasts', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Advertiser Dashboard' })).toBeVisible()
  await expect(page.getByText('Sign in to your account')).toBeVisible()
  const signIn = page.getByRole('button', { name: 'Sign In' })

  await page.getByLabel('Email').fill('   ')
  await signIn.click()
  await expect(page.getByTestId('toast')).toContainText('Email Required')
  await expect(page.getByTestId('toast')).toContainText('Please enter your email address')

  await page.getByLabel('Email').fill('not-an-email')
  await signIn.click()
  await expect(page.getByTestId('toast')).toContainText('Password Required')

  await page.getByLabel('Password', { exact: true }).fill('whatever')
  await signIn.click()
  await expect(page.getByTestId('toast')).toContainText('Invalid Email')
  await expect(page.getByTestId('toast')).toContainText('Please enter a valid email address')
})

test('wrong credentials say Login Failed; the right ones welcome the business by name', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Email').fill(demoBusiness.businessEmail)
  await page.getByLabel('Password', { exact: true }).fill('wrong-password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByTestId('toast')).toContainText('Login Failed')
  await expect(page.getByTestId('toast')).toContainText('Invalid email or password')

  await page.getByLabel('Password', { exact: true }).fill(demoBusiness.password)
  await page.getByRole('button', { name: 'Show password' }).click()
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL('**/dashboard')
  await expect(page.getByTestId('toast')).toContainText('Login Successful')
  await expect(page.getByTestId('toast')).toContainText(`Welcome back, ${demoBusiness.businessName}!`)
})

test('with JavaScript, email and password are trimmed before sending (spec §5)', async ({ page }) => {
  await page.goto('/login')
  // The page is scripted (hydrated: the password toggle is there) before anything is typed.
  await expect(page.getByRole('button', { name: 'Show password' })).toBeVisible()
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/login'))
      sent.push(request.postData() ?? '')
  })
  await page.getByLabel('Email').fill(`  ${demoBusiness.businessEmail}  `)
  await page.getByLabel('Password', { exact: true }).fill(`  ${demoBusiness.password}  `)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL('**/dashboard')
  expect(sent).toHaveLength(1)
  const fields = new URLSearchParams(sent[0])
  expect(fields.get('email')).toBe(demoBusiness.businessEmail)
  expect(fields.get('password')).toBe(demoBusiness.password)
})

test('registration shows the field rules, then creates the account and goes to sign-in', async ({ page }) => {
  await page.goto('/create-account')
  await expect(page.getByRole('heading', { name: 'Create Business Account' })).toBeVisible()
  // The robot traps are out of sight and out of the accessibility tree.
  await expect(page.locator('input[name="nickname"]')).toBeHidden()
  await expect(page.getByRole('textbox', { name: 'Leave this field empty' })).toHaveCount(0)
  await fillRegistration(page, uniqueEmail('reg'))
  await page.getByLabel('Verify Password').fill('different1')
  await page.getByLabel('Website').fill('cornerbooks.example')
  await page.getByLabel('Website').blur()
  await expect(page.getByLabel('Website')).toHaveValue('https://cornerbooks.example')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()

  await page.getByLabel('Verify Password').fill('booksrule')
  // A person's pace: a form posted sooner than the minimum fill time is refused as a robot's.
  await waitForFormStampAge(page, SIGNUP_MIN_FILL_MS)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByTestId('toast')).toContainText('Account Created')
  await page.waitForURL('**/login')
})

test('logout ends the session on the server', async ({ page }) => {
  await signInAsBusiness(page)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: demoBusiness.businessName })).toBeVisible()
  const cookies = await page.context().cookies()
  await page.locator('main').getByRole('button', { name: 'Logout' }).click()
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/login')
  // The old cookie, replayed, no longer opens the dashboard.
  await page.context().addCookies(cookies)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login/)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('registration and sign-in work as plain forms, and the toast survives the redirect', async ({
    page,
  }) => {
    const email = uniqueEmail('nojs')
    await page.goto('/create-business-account')
    await fillRegistration(page, email)
    await page.getByLabel('ZIP Code').fill('123')
    // A person's pace (the minimum fill time); the stamp cookie is kept, so the corrected post need not wait.
    await waitForFormStampAge(page, SIGNUP_MIN_FILL_MS)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByText('ZIP code must be at least 5 characters')).toBeVisible()
    await page.getByLabel('ZIP Code').fill('62701')
    await page.getByLabel('Password', { exact: true }).fill('booksrule')
    await page.getByLabel('Verify Password').fill('booksrule')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByTestId('toast')).toContainText('Account Created')

    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('wrong-one')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByText('Invalid email or password')).toBeVisible()
    await page.getByLabel('Password', { exact: true }).fill('booksrule')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByTestId('toast')).toContainText('Welcome back, Corner Books!')
  })
})
