import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, test } from './fixtures.ts'
import { linkInMail } from './mailbox.ts'

/** A business's page: reached from a card and an event page, its quick dates, following it, on a phone and a desktop. */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const PHONE = { width: 375, height: 667 }
const DESKTOP = { width: 1280, height: 800 }
const today = todayInZone('America/New_York')

const uniqueEmail = () =>
  `follower-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/** The first calendar card's "More from …" link: its business's page. */
async function firstBusinessPage(page: Page) {
  await page.goto('/calendar')
  const more = page.getByRole('link', { name: /^More from / }).first()
  const name = (await more.innerText()).replace(/^More from /, '')
  await more.click()
  await expect(page).toHaveURL(/\/business\/\d+-[a-z0-9-]+$/)
  return name
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('a card leads to the business page: its details, cards, quick dates, feeds and structured data', async ({
      page,
    }) => {
      const name = await firstBusinessPage(page)
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
      await expect(page).toHaveTitle(`${name} · EventShout`)
      const cards = page.getByRole('list', { name: 'Events' }).getByTestId('calendar-event')
      expect(await cards.count()).toBeGreaterThan(0)
      await expect(page.getByTestId('past-events')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Add to my calendar (iCal)' })).toHaveAttribute(
        'href',
        /^\/business\/\d+\/calendar\.ics$/,
      )
      const jsonLd = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
      )
      expect(jsonLd).toMatchObject({ '@type': 'LocalBusiness', name })
      expect(jsonLd.event.length).toBeGreaterThan(0)
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
        'content',
        `${name} · EventShout`,
      )

      const quick = page.getByRole('navigation', { name: 'Quick dates' })
      await quick.getByRole('link', { name: 'Next 7 days' }).click()
      await expect(page).toHaveURL(new RegExp(`\\?from=${today}&to=${addDaysIso(today, 6)}$`))
      await expect(quick.getByRole('link', { name: 'Next 7 days' })).toHaveAttribute('aria-current', 'true')
      await page.getByRole('link', { name: 'Every upcoming event' }).click()
      await expect(page).toHaveURL(/\/business\/\d+-[a-z0-9-]+$/)
    })

    test('an event page links to its business; the business is followed by email, confirmed and managed', async ({
      page,
    }) => {
      await page.goto('/calendar')
      await page.getByRole('link', { name: 'View details' }).first().click()
      await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
      const more = page.getByRole('link', { name: /^More from / })
      const name = (await more.innerText()).replace(/^More from /, '')
      await more.click()
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

      const email = uniqueEmail()
      const form = page.getByRole('form', { name: `Email me new events from ${name}` })
      await form.getByLabel('Your email address').fill(email)
      await form.getByRole('button', { name: 'Email me' }).click()
      await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()

      // The follower's own mailbox: the email the server sent over SMTP.
      await page.goto(await linkInMail(email, '/subscriptions/confirm'))
      await expect(page.getByText(`New events from ${name}`)).toBeVisible()
      await page.getByRole('button', { name: 'Confirm' }).click()
      await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible()
      await page.getByRole('link', { name: 'Manage your subscription' }).click()
      await expect(page.getByText(`New events from ${name}`)).toBeVisible()
      await page.getByRole('button', { name: 'Unsubscribe' }).click()
      await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible()
    })
  })
}

test('a refused follow draws the follow form again with the reason; a business without a page is a 404', async ({
  page,
}) => {
  const name = await firstBusinessPage(page)
  const businessID = await page.locator('input[name="businessID"]').getAttribute('value')
  const origin = new URL(page.url()).origin
  const refused = await page.request.post('/subscribe', {
    headers: { Origin: origin },
    form: { kind: 'business', businessID: businessID!, email: 'not-an-address' },
  })
  expect(refused.status()).toBe(400)
  const html = await refused.text()
  expect(html).toContain(`Email me new events from ${name}`)
  expect(html).toContain('Enter an email address such as name@example.com')
  const unknown = await page.request.post('/subscribe', {
    headers: { Origin: origin },
    form: { kind: 'business', businessID: '999999999', email: uniqueEmail() },
  })
  expect(unknown.status()).toBe(404)
})

test('an unknown business is a 404 page; an id alone leads to the page’s own address', async ({ page }) => {
  expect((await page.goto('/business/999999999-nobody'))?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Business Not Found' })).toBeVisible()
  expect((await page.goto('/business/abc'))?.status()).toBe(404)
  await firstBusinessPage(page)
  const own = new URL(page.url()).pathname
  const id = /\/business\/(\d+)-/.exec(own)![1]
  await page.goto(`/business/${id}`)
  expect(new URL(page.url()).pathname).toBe(own)
})

for (const viewport of [PHONE, DESKTOP]) {
  test(`the business page at ${viewport.width} px passes axe and does not scroll sideways`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await firstBusinessPage(page)
    await expectAxeClean(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    )
  })
}
