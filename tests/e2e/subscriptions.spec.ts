import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { demoAdmin, expect, signInAsStaff, test } from './fixtures.ts'
import { linkInMail } from './mailbox.ts'

/** "Email me these events", "Remind me" and the quick dates, with JavaScript on and off. */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const PHONE = { width: 375, height: 667 }
const today = todayInZone('America/New_York')

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

const uniqueEmail = () =>
  `visitor-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`

/** The key a link of a subscriber's email carries (its `token`). */
const tokenOf = (link: string) => new URL(link, 'http://localhost').searchParams.get('token')!

/**
 * The administrators' view of the email whose text has `marker` (the outbox does not show a subscriber's address,
 * so it is found by its search): its links say what they are for, and none carries any of `tokens`.
 */
async function expectOutboxHidesKeys(browser: Browser, marker: string, tokens: string[]) {
  const context = await browser.newContext({ viewport: PHONE })
  try {
    const admin = await context.newPage()
    await signInAsStaff(admin, demoAdmin.email)
    await admin.goto('/admin/outbox')
    for (const token of tokens) expect(await admin.content()).not.toContain(token)
    const rows = admin.getByRole('row').filter({ hasText: 'a subscriber (address not shown)' })
    const hrefs = await rows
      .getByRole('link')
      .evaluateAll((links) => links.slice(0, 20).map((a) => a.getAttribute('href')))
    for (const href of hrefs) {
      await admin.goto(href!)
      const text = await admin.getByTestId('text-body').innerText()
      if (!text.includes(marker)) continue
      expect(text).toMatch(/^Confirm my subscription: \S+\/subscriptions\/confirm\?token=\[hidden\]$/m)
      expect(text).toMatch(/^Unsubscribe: \S+\/subscriptions\/unsubscribe\?token=\[hidden\]$/m)
      const html = admin.frameLocator('iframe[title="The message as HTML"]')
      await expect(html.getByRole('link', { name: 'Confirm my subscription' })).toHaveAttribute(
        'href',
        /\/subscriptions\/confirm\?token=\[hidden\]$/,
      )
      const htmlLinks = await html
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
      for (const link of htmlLinks.filter((l) => l!.includes('/subscriptions/')))
        expect(link).toMatch(/\?token=\[hidden\]$/)
      for (const token of tokens) expect(await admin.content()).not.toContain(token)
      // The message's long links wrap: on a phone the page does not scroll sideways.
      expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      )
      return
    }
    throw new Error(`No email about ${marker} in the outbox`)
  } finally {
    await context.close()
  }
}

const uniqueKeyword = () => `music${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('quick dates set From and To, keep the filters and mark the choice', async ({ page }) => {
      await page.goto('/calendar?keyword=e')
      const quick = page.getByRole('navigation', { name: 'Quick dates' })
      await quick.getByRole('link', { name: 'Next 7 days' }).click()
      await expect(page).toHaveURL(`/calendar?keyword=e&from=${today}&to=${addDaysIso(today, 6)}`)
      await expect(quick.getByRole('link', { name: 'Next 7 days' })).toHaveAttribute('aria-current', 'true')
      await expect(quick.getByRole('link', { name: 'Today' })).not.toHaveAttribute('aria-current', 'true')
      await quick.getByRole('link', { name: 'Today' }).click()
      await expect(page).toHaveURL(`/calendar?keyword=e&from=${today}&to=${today}`)
    })

    test('subscribe from a filtered calendar, confirm, manage, unsubscribe', async ({ page }) => {
      const email = uniqueEmail()
      const keyword = uniqueKeyword()
      await page.goto(`/calendar?keyword=${keyword}&from=${today}&to=${today}`)
      const form = page.getByRole('form', { name: 'Email me these events' })
      await expect(form).toContainText(`Upcoming events: Keyword “${keyword}”`)
      await form.getByLabel('Your email address').fill(email)
      await form.getByLabel('As they go live (at most one email a day)').check()
      await form.getByRole('button', { name: 'Email me these events' }).click()
      await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
      await expect(page.getByRole('status')).toContainText('follow its link within 48 hours')
      expect(page.url()).not.toContain('example.com')

      // Following the link in the email received confirms nothing (mail providers' scanners follow every link): its
      // button does.
      await page.goto(await linkInMail(email, '/subscriptions/confirm'))
      await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible()
      await expect(page.getByText(`Upcoming events: Keyword “${keyword}”`)).toBeVisible()
      await page.getByRole('button', { name: 'Confirm' }).click()
      await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible()
      await page.getByRole('link', { name: 'Manage your subscription' }).click()
      await expect(page.getByRole('heading', { name: 'Your subscription' })).toBeVisible()
      await expect(page.getByText(email)).toBeVisible()
      await expect(page.getByText(`Upcoming events: Keyword “${keyword}”`)).toBeVisible()
      await expect(page.getByLabel('As they go live (at most one email a day)')).toBeChecked()
      await page.getByLabel('Weekly digest').check()
      await page.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByRole('status')).toHaveText('Saved: your emails will come at the new frequency.')
      await expect(page.getByLabel('Weekly digest')).toBeChecked()
      await page.getByRole('button', { name: 'Unsubscribe' }).click()
      await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible()
    })

    test('remind me from an event page', async ({ page }) => {
      await page.goto('/calendar')
      await page.getByRole('link', { name: 'View details' }).first().click()
      await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
      const form = page.getByRole('form', { name: 'Remind me' })
      await form.getByLabel('Your email address').fill(uniqueEmail())
      await form.getByRole('button', { name: 'Remind me' }).click()
      await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
    })

    test('a tampered link is a 400 page that says what to do', async ({ page }) => {
      const response = await page.goto('/subscriptions/confirm?token=1.confirm.9999999999.forged')
      expect(response?.status()).toBe(400)
      await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible()
      await expect(page.getByRole('alert')).toContainText('Subscribe again from the calendar')
    })
  })
}

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: PHONE })

  test('the calendar with its forms, the subscribe page and the manage page fit and pass axe', async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail()
    const keyword = uniqueKeyword()
    await page.goto(`/calendar?keyword=${keyword}`)
    await expectAxeClean(page)
    const form = page.getByRole('form', { name: 'Email me these events' })
    await form.getByLabel('Your email address').fill(email)
    await form.getByRole('button', { name: 'Email me these events' }).click()
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
    await expectAxeClean(page)
    await page.goto('/subscribe?keyword=music')
    await expectAxeClean(page)
    const manage = await linkInMail(email, '/subscriptions/manage')
    const confirm = await linkInMail(email, '/subscriptions/confirm')
    // Administrators read the email in the outbox without the keys of its links.
    await expectOutboxHidesKeys(browser, keyword, [tokenOf(manage), tokenOf(confirm)])
    await page.goto(manage)
    await expectAxeClean(page)
    for (const path of ['/calendar?keyword=music', page.url()]) {
      await page.goto(path)
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
        path,
      ).toBe(0)
    }
  })
})
