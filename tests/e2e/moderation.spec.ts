import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { REPORT_MIN_FILL_MS } from '#app/constants.ts'
import {
  demoAdmin,
  expect,
  paidAd,
  signInAsNewBusiness,
  signInAsStaff,
  test,
  waitForFormStampAge,
} from './fixtures.ts'

/** WCAG 2.2 A and AA, as axe-core tags them. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** A person's browser: a headless one says so in its User-Agent, and reports from robots are refused. */
const PERSON_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** axe runs in the page, so only where scripts run; the same pages are checked in the mode with JavaScript. */
async function expectAxeClean(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/**
 * One mode's journey: two paid ads approved together with "Approve selected", a visitor reports one of them, and an
 * administrator takes it down from /admin/reports; it leaves the public page.
 */
async function moderationJourney(browser: Browser, javaScriptEnabled: boolean) {
  const label = javaScriptEnabled ? 'Scripted' : 'Plain'
  const titles = [`${label} Bulk Fair`, `${label} Bulk Market`]

  // Paying needs the card form's script.
  const payer = await browser.newPage()
  await signInAsNewBusiness(payer, `${label} Bulk Club`)
  const ids = [await paidAd(payer, titles[0]!), await paidAd(payer, titles[1]!)]
  await payer.close()

  const admin = await browser.newPage({ javaScriptEnabled })
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto('/admin?date=all')
  for (const title of titles) {
    await admin
      .getByRole('listitem')
      .filter({ has: admin.getByRole('heading', { name: title, exact: true }) })
      .getByLabel('Select for bulk approval')
      .check()
  }
  await admin.getByRole('button', { name: 'Approve selected' }).click()
  await expect(admin.getByTestId('toast')).toContainText('2 ads approved')
  for (const title of titles)
    await expect(admin.getByRole('heading', { name: title, exact: true })).toHaveCount(0)

  const visitor = await browser.newPage({ javaScriptEnabled, userAgent: PERSON_USER_AGENT })
  await visitor.goto(`/event/${ids[0]}?viewMode=true`)
  await visitor.getByRole('link', { name: 'Report this ad' }).click()
  await expect(visitor.getByRole('heading', { name: 'Report this ad' })).toBeVisible()
  await expectAxeClean(visitor, javaScriptEnabled)
  await visitor.getByLabel('Why are you reporting this ad?').selectOption({ label: 'Misleading' })
  await visitor.getByLabel('Details (optional)').fill('The fair was cancelled last week.')
  // A person's pace: a form sent sooner than a person could is refused as a robot's.
  await waitForFormStampAge(visitor, REPORT_MIN_FILL_MS)
  await visitor.getByRole('button', { name: 'Send report' }).click()
  await expect(visitor.getByRole('status')).toHaveText(
    'Thank you. An administrator will look at your report.',
  )

  await admin.goto('/admin/reports')
  const reported = admin.getByRole('article', { name: titles[0] })
  await expect(reported).toContainText('The fair was cancelled last week.')
  await expectAxeClean(admin, javaScriptEnabled)
  await reported.getByLabel(/^Reason for a takedown/).fill('The event was cancelled')
  await reported.getByRole('button', { name: 'Take the ad down' }).click()
  await expect(admin.getByTestId('toast')).toContainText('Ad taken down')
  await expect(admin.getByRole('article', { name: titles[0] })).toHaveCount(0)

  expect((await visitor.goto(`/event/${ids[0]}?viewMode=true`))?.status()).toBe(404)
  expect((await visitor.goto(`/event/${ids[1]}?viewMode=true`))?.status()).toBe(200)

  await admin.goto(`/admin/events/${ids[0]}`)
  const trail = admin.getByTestId('moderation-audit')
  await expect(trail).toContainText('Taken down')
  await expect(trail).toContainText('The event was cancelled')
  await expect(trail).toContainText('Approved')
  await expectAxeClean(admin, javaScriptEnabled)
  await Promise.all([admin.close(), visitor.close()])
}

test('bulk approve, report an ad, take it down: with JavaScript', async ({ browser }) => {
  test.setTimeout(90_000)
  await moderationJourney(browser, true)
})

test('bulk approve, report an ad, take it down: without JavaScript', async ({ browser }) => {
  test.setTimeout(90_000)
  await moderationJourney(browser, false)
})

test('an administrator confirms an auto-approved ad from the check list, without JavaScript', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  // Paying needs the card form's script; the server samples every trusted ad (TRUSTED_SAMPLE_PERCENT=100).
  const payer = await browser.newPage()
  await signInAsNewBusiness(payer, 'Checked Trust Club')
  const firstID = await paidAd(payer, 'Checked Trust First')

  const admin = await browser.newPage({ javaScriptEnabled: false })
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto(`/admin/events/${firstID}`)
  await admin.getByLabel('Reason (required)').fill('Known venue')
  await admin.getByRole('button', { name: 'Grant trust' }).click()
  await expect(admin.getByTestId('business-trust')).toContainText('Trusted')

  const title = 'Checked Trust Second'
  const secondID = await paidAd(payer, title)
  expect((await payer.goto(`/event/${secondID}?viewMode=true`))?.status()).toBe(200)
  await payer.close()

  await admin.goto('/admin')
  const checks = admin.getByRole('list', { name: 'Auto-approved — check' })
  await expect(checks).toContainText(title)
  await checks.getByRole('button', { name: `Confirm “${title}”` }).click()
  await expect(admin.getByTestId('toast')).toContainText('Ad checked')
  await expect(admin.getByRole('button', { name: `Confirm “${title}”` })).toHaveCount(0)

  await admin.goto(`/admin/events/${secondID}`)
  const trail = admin.getByTestId('moderation-audit')
  await expect(trail).toContainText('Checked after auto-approval')
  await expect(trail).toContainText('Auto-approved')
  await admin.close()
})
