import { todayInZone } from '#app/utils/time.ts'
import { demoClinician, expect, signInAsBusiness, signInAsStaff, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const [yyyy, mm, dd] = today.split('-')

const mrn = () => `MRN-${Date.now().toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 5)}`

test('a clinician adds, edits, finds and deletes a record', async ({ page }) => {
  const id = mrn()
  await signInAsStaff(page, demoClinician.email)
  await page.goto('/patient-diseases')
  await expect(page.getByRole('heading', { name: 'Patient Disease Records' })).toBeVisible()

  await page.getByRole('link', { name: 'Add New Record' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Add New Record' })).toBeVisible()
  for (const section of [
    'Patient Information',
    'Disease Information',
    'Tracking Information',
    'CDM Information',
  ]) {
    await expect(dialog.getByText(section, { exact: true })).toBeVisible()
  }
  await dialog.getByLabel('MRN').fill(id)
  await dialog.getByLabel('Patient Number').fill('4321')
  await dialog.getByLabel('Disease', { exact: true }).fill('Type 2 diabetes')
  await dialog.getByLabel('Disease Code').fill('E11.9')
  await dialog.getByLabel('Last Reviewed').fill(today)
  await dialog.getByRole('button', { name: 'Save Record' }).click()
  await expect(page.getByTestId('toast')).toContainText('Patient disease record created')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const row = page.getByRole('row').filter({ hasText: id })
  await expect(row).toContainText(`${mm}/${dd}/${yyyy}`)

  await row.getByRole('link', { name: `Edit record ${id}` }).click()
  await page.getByRole('dialog').getByLabel('Disease', { exact: true }).fill('Type 2 diabetes mellitus')
  await page.getByRole('dialog').getByRole('button', { name: 'Save Record' }).click()
  await expect(page.getByTestId('toast')).toContainText('Patient disease record updated')

  await page.getByLabel('Search records').fill(id.toLowerCase())
  await page.getByRole('button', { name: 'Search' }).click()
  // The edited row is on the page before the search answers too: wait for the search itself.
  await expect(page.getByRole('table', { name: 'Patient disease records' })).toContainText(
    `matching “${id.toLowerCase()}”`,
  )
  await expect(page.getByRole('row').filter({ hasText: id })).toContainText('mellitus')

  await page.getByRole('link', { name: `Delete record ${id}` }).click()
  await expect(page.getByRole('heading', { name: 'Are you sure?' })).toBeVisible()
  await expect(page.getByText(/cannot be undone/)).toBeVisible()
  await page.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByTestId('toast')).toContainText('Patient disease record deleted')
  await expect(page.getByText('No records found matching your search')).toBeVisible()
})

test('an advertiser is refused the clinical tool', async ({ page }) => {
  await signInAsBusiness(page)
  const res = await page.goto('/patient-diseases')
  expect(res?.status()).toBe(403)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('create and the delete confirmation are pages', async ({ page }) => {
    const id = mrn()
    await signInAsStaff(page, demoClinician.email)
    await page.goto('/patient-diseases/new')
    await page.getByLabel('MRN').fill(id)
    await page.getByLabel('Disease', { exact: true }).fill('Asthma')
    await page.getByRole('button', { name: 'Save Record' }).click()
    await expect(page).toHaveURL(/\/patient-diseases/)
    await expect(page.getByTestId('toast')).toContainText('Patient disease record created')
    await page.getByRole('link', { name: `Delete record ${id}` }).click()
    await expect(page.getByRole('heading', { name: 'Are you sure?' })).toBeVisible()
    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByTestId('toast')).toContainText('Patient disease record deleted')
    await expect(page.getByRole('row').filter({ hasText: id })).toHaveCount(0)
  })
})
