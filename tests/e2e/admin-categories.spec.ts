import { demoAdmin, expect, signInAsStaff, test } from './fixtures.ts'

test('an administrator adds, renames and hides a category without JavaScript, and reads why a name is refused', async ({
  browser,
}) => {
  const admin = await browser.newPage({ javaScriptEnabled: false })
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto('/admin')
  await admin.getByRole('link', { name: 'Categories' }).click()
  await expect(admin).toHaveURL(/\/admin\/categories$/)

  await admin.getByLabel('New category').fill('Trivia Night')
  await admin.getByRole('button', { name: 'Add category' }).click()
  const row = admin.getByRole('row').filter({ has: admin.locator('input[value="Trivia Night"]') })
  await expect(row).toContainText('Yes')

  await admin.getByLabel('New category').fill('trivia night')
  await admin.getByRole('button', { name: 'Add category' }).click()
  await expect(
    admin.getByRole('alert').filter({ hasText: 'A category named "Trivia Night" already exists' }),
  ).toBeVisible()

  await admin.goto('/admin/categories')
  await admin.getByLabel('Name of Trivia Night').fill('Quiz Night')
  await row.getByRole('button', { name: 'Rename' }).click()
  const renamed = admin.getByRole('row').filter({ has: admin.locator('input[value="Quiz Night"]') })
  await renamed.getByRole('button', { name: 'Hide' }).click()
  await expect(renamed).toContainText('Hidden')
  await expect(renamed.getByRole('button', { name: 'Show' })).toBeVisible()

  await admin.goto('/calendar')
  await expect(admin.locator('option', { hasText: 'Quiz Night' })).toHaveCount(0)
})
