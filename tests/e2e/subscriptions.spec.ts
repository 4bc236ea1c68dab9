import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { demoAdmin, expect, signInAsStaff, test } from './fixtures.ts'

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

/**
 * The link to `path` in the confirmation email whose text has `marker`, read at /admin/outbox as an administrator
 * (the outbox does not show a subscriber's address, so the email is found by its search).
 */
async function linkInOutbox(browser: Browser, marker: string, path: string) {
  const context = await browser.newContext()
  try {
    const admin = await context.newPage()
    await signInAsStaff(admin, demoAdmin.email)
    await admin.goto('/admin/outbox')
    const rows = admin.getByRole('row').filter({ hasText: 'a subscriber (address not shown)' })
    const hrefs = await rows
      .getByRole('link')
      .evaluateAll((links) => links.slice(0, 20).map((a) => a.getAttribute('href')))
    for (const href of hrefs) {
      await admin.goto(href!)
      const text = await admin.getByTestId('text-body').innerText()
      if (!text.includes(marker)) continue
      const link = new RegExp(`https?://\\S+${path}\\?token=\\S+`).exec(text)?.[0]
      expect(link, `a ${path} link`).toBeTruthy()
      // The message's long link wraps: on a phone the page does not scroll sideways.
      await admin.setViewportSize(PHONE)
      expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      )
      const url = new URL(link!)
      return url.pathname + url.search
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

    test('subscribe from a filtered calendar, confirm, manage, unsubscribe', async ({ page, browser }) => {
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

      // Following the link confirms nothing (mail providers' scanners follow every link): its button does.
      await page.goto(await linkInOutbox(browser, keyword, '/subscriptions/confirm'))
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
    await page.goto(await linkInOutbox(browser, keyword, '/subscriptions/manage'))
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
