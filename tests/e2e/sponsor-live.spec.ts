import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { approveAsAdmin, expect, paidAd, signInAsNewBusiness, test } from './fixtures.ts'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** A live ad of a new advertiser signed in on `page`, shown tomorrow (never in today's Sponsored slots). */
async function liveAdOf(browser: Browser, page: Page, name: string) {
  // paidAd pays at checkout with JavaScript: a page of its own when this one has none.
  const payer = await browser.newPage()
  await signInAsNewBusiness(payer, name)
  const title = `${name} ${Date.now().toString(36)}`
  const eventID = await paidAd(payer, title)
  await page.context().addCookies(await payer.context().cookies())
  await approveAsAdmin(browser, eventID)
  await payer.close()
  return { eventID, title }
}

for (const { javaScript, viewport } of [
  { javaScript: true, viewport: { width: 375, height: 667 } },
  { javaScript: false, viewport: { width: 1280, height: 800 } },
]) {
  test(`an advertiser makes a live ad sponsored from its page, ${javaScript ? 'with' : 'without'} JavaScript, at ${viewport.width} px`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport })
    const page = await context.newPage()
    const { eventID, title } = await liveAdOf(browser, page, javaScript ? 'Glow Market' : 'Quiet Market')

    await page.goto(`/dashboard/events/${eventID}`)
    const offer = page.getByRole('region', { name: 'Sponsored placement' })
    await expect(offer).toContainText('on its 1 display day left, for $5.00')
    await offer.getByRole('link', { name: 'Make it sponsored' }).click()

    await expect(page).toHaveURL(new RegExp(`/dashboard/events/${eventID}/sponsor$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Make “${title}” sponsored`)
    if (javaScript) {
      // axe runs in the page: only where it may run scripts.
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
      expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])
    }

    // A declined card: told on the page, nothing changes.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002')
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('CVC').fill('123')
    await page.getByRole('button', { name: 'Pay $5.00' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'declined' }).first()).toBeVisible()

    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('CVC').fill('123')
    await page.getByRole('button', { name: 'Pay $5.00' }).click()

    await expect(page).toHaveURL(new RegExp(`/dashboard/events/${eventID}$`))
    await expect(page.getByText('Your ad is sponsored').first()).toBeVisible()
    await expect(page.getByRole('region', { name: 'Sponsored placement' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Sponsorship receipt ($5.00)' }).click()
    await expect(page.getByTestId('receipt')).toContainText('Sponsored placement')
    await expect(page.getByTestId('receipt')).toContainText('$5.00')
    await context.close()
  })
}
