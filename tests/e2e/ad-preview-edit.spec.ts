import type { Locator, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoAdmin,
  expect,
  fromSite,
  PNG,
  signInAsBusiness,
  signInAsStaff,
  test,
  waitForEventFormHydrated,
} from './fixtures.ts'

const today = todayInZone('America/New_York')
const dates = [addDaysIso(today, 2), addDaysIso(today, 3)]
const eventDate = addDaysIso(today, 4)
const LINK_NAMES = ['Website', 'Facebook', 'Instagram', 'LinkedIn', 'YouTube', 'X', 'TikTok']

let counter = 0

/** A fresh advertiser with every link filled in and a ten-digit phone, signed in. */
async function signInWithLinks(page: Page, name: string) {
  const id = `${Date.now().toString(36)}${++counter}${Math.random().toString(36).slice(2, 6)}`
  const slug = `shop${id}`
  const account = {
    businessName: `${name} ${id}`,
    businessAddress: '12 Linden Avenue',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
    businessPhone: '2175550148',
    businessEmail: `links-${id}@example.com`,
    businessPassword: 'secret123',
    verifyPassword: 'secret123',
    businessContact: 'Robin Links',
    businessWebsite: `https://${slug}.example`,
    facebookURL: `https://facebook.com/${slug}`,
    instagramURL: `https://instagram.com/${slug}`,
    linkedin: `https://linkedin.com/company/${slug}`,
    youtubeURL: `https://youtube.com/@${slug}`,
    xURL: `https://x.com/${slug}`,
    tiktokURL: `https://tiktok.com/@${slug}`,
  }
  const res = await page.request.post('/api/business', { headers: fromSite(), data: account })
  expect(res.status(), await res.text()).toBe(201)
  await signInAsBusiness(page, { businessEmail: account.businessEmail, password: account.businessPassword })
  return account
}

/** A link as the advertiser gave it: the public card credits the site on it (`utm_` parameters), the preview not. */
function withoutCredit(href: string) {
  const url = new URL(href)
  for (const name of ['utm_source', 'utm_medium', 'utm_campaign']) url.searchParams.delete(name)
  return url.toString()
}

/** What a customer reads on a card: the business block (text and links), the title and the description. */
async function cardContent(card: Locator) {
  const header = card.locator('header')
  const links = await header
    .getByRole('link')
    .evaluateAll((anchors) =>
      anchors
        .filter((a) => a.getAttribute('target') === '_blank')
        .map((a) => ({ name: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '' })),
    )
  return {
    header: (await header.innerText()).replace(/\s+/g, ' ').trim(),
    links: links.map((link) => ({ ...link, href: withoutCredit(link.href) })),
    title: (await card.getByRole('heading').first().innerText()).trim(),
    description: (await card.locator('p.whitespace-pre-line').innerText()).trim(),
  }
}

/** Fills the ad form of a page that has just loaded; with JavaScript, once it has hydrated (or it would undo this). */
async function fillNewAd(page: Page, title: string, javaScriptEnabled = true) {
  if (javaScriptEnabled) await waitForEventFormHydrated(page)
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill(`All about ${title}.`)
  await page.getByRole('checkbox', { name: 'Concert' }).check()
  for (const d of dates) await page.getByLabel(d, { exact: true }).check({ force: true })
  await page.getByLabel('Event date').fill(eventDate)
  await page.setInputFiles('#image', { name: 'poster.png', mimeType: 'image/png', buffer: PNG })
}

/** The id of the business's ad titled `title`, read from its gallery card's link. */
async function eventIdFromDashboard(page: Page, title: string) {
  await page.goto('/dashboard')
  const href = await page
    .getByTestId('gallery-card')
    .filter({ hasText: title })
    .getByRole('link')
    .first()
    .getAttribute('href')
  const id = /\/event\/(\d+)/.exec(href ?? '')?.[1]
  expect(id, `gallery link ${href}`).toBeTruthy()
  return id!
}

async function expectLinksOfAccount(card: Locator, account: Awaited<ReturnType<typeof signInWithLinks>>) {
  const links = (await cardContent(card)).links
  expect(links.map((l) => l.name)).toEqual(LINK_NAMES)
  expect(links.map((l) => l.href)).toEqual(
    [
      account.businessWebsite,
      account.facebookURL,
      account.instagramURL,
      account.linkedin,
      account.youtubeURL,
      account.xURL,
      account.tiktokURL,
    ].map(withoutCredit),
  )
}

test.describe('the preview shows the card customers see', () => {
  test('with JavaScript: the dialog card equals the public card, business links included', async ({
    page,
  }) => {
    const account = await signInWithLinks(page, 'Linked Dialog Bar')
    await page.goto('/dashboard/events/new')
    await fillNewAd(page, 'Linked Dialog Night')
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    const dialog = page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
    const previewCard = dialog.getByTestId('customer-event-card')
    await expect(previewCard).toBeVisible()
    await expectLinksOfAccount(previewCard, account)
    const preview = await cardContent(previewCard)
    await dialog.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
    await page.waitForURL('**/checkout')

    const id = await eventIdFromDashboard(page, 'Linked Dialog Night')
    await page.goto(`/event/${id}?viewMode=true`)
    expect(await cardContent(page.getByTestId('customer-event-card'))).toEqual(preview)
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('the preview page card equals the public card, business links included', async ({ page }) => {
      const account = await signInWithLinks(page, 'Linked Plain Bar')
      await page.goto('/dashboard/events/new')
      await fillNewAd(page, 'Linked Plain Night', false)
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      await expect(page.getByRole('heading', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
      const previewCard = page.getByTestId('customer-event-card')
      await expectLinksOfAccount(previewCard, account)
      const preview = await cardContent(previewCard)
      await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
      await expect(page).toHaveURL(/\/checkout$/)

      const id = await eventIdFromDashboard(page, 'Linked Plain Night')
      await page.goto(`/event/${id}?viewMode=true`)
      expect(await cardContent(page.getByTestId('customer-event-card'))).toEqual(preview)
    })
  })
})

/** Creates an unpaid ad through the plain form (works with and without JavaScript) and returns its id. */
async function createUnpaidAd(page: Page, title: string, javaScriptEnabled: boolean) {
  await page.goto('/dashboard/events/new')
  await fillNewAd(page, title, javaScriptEnabled)
  await page.getByText('Contact for this event (optional)').click()
  await page.getByLabel('Contact person').fill('Sam Stage')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  const approve = page.getByRole('button', { name: 'Approve Your Ad - $29.00' })
  await approve.click()
  await page.waitForURL('**/checkout')
  return eventIdFromDashboard(page, title)
}

async function expectFormFilledWithAd(page: Page, title: string) {
  await expect(page.getByLabel('Title')).toHaveValue(title)
  await expect(page.getByLabel('Description')).toHaveValue(`All about ${title}.`)
  await expect(page.getByRole('checkbox', { name: 'Concert' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'Arts' })).not.toBeChecked()
  for (const d of dates) await expect(page.getByLabel(d, { exact: true })).toBeChecked()
  await expect(page.getByLabel('Event date')).toHaveValue(eventDate)
  await expect(page.getByLabel('Contact person')).toHaveValue('Sam Stage')
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`"Edit Event" ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('opens this ad filled in and saves to the same ad, keeping its photo', async ({ page }) => {
      await signInWithLinks(page, javaScriptEnabled ? 'Edit Js Pub' : 'Edit Plain Pub')
      const title = javaScriptEnabled ? 'Open Mic Js' : 'Open Mic Plain'
      const id = await createUnpaidAd(page, title, javaScriptEnabled)
      await page.goto(`/event/${id}?viewMode=true`)
      const photoSrc = await page.getByTestId('customer-event-card').getByRole('img').getAttribute('src')
      expect(photoSrc).toMatch(/^\/api\/media\//)

      await page.goto(`/event/${id}`)
      await page.getByRole('link', { name: 'Edit Event' }).click()
      if (javaScriptEnabled) await waitForEventFormHydrated(page)
      await expectFormFilledWithAd(page, title)

      await page.getByLabel('Title').fill(`${title} (updated)`)
      await page.getByLabel(addDaysIso(today, 5), { exact: true }).check({ force: true })
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      const card = page.getByTestId('customer-event-card')
      await expect(card.getByRole('heading', { name: `${title} (updated)` })).toBeVisible()
      // The photo already saved is kept (and shown), not replaced by an empty box.
      await expect(card.getByRole('img')).toHaveAttribute('src', photoSrc!)
      await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
      await page.waitForURL('**/checkout')

      await page.goto('/dashboard')
      await expect(page.getByTestId('gallery-card')).toHaveCount(1)
      expect(await eventIdFromDashboard(page, `${title} (updated)`)).toBe(id)
      await page.goto(`/event/${id}?viewMode=true`)
      await expect(page.getByRole('heading', { name: `${title} (updated)` })).toBeVisible()
      await expect(page.getByTestId('customer-event-card').getByRole('img')).toHaveAttribute('src', photoSrc!)
    })
  })
}

test.describe('phone numbers', () => {
  test('the create dialog shows the business phone by the same rule as the card', async ({ page }) => {
    await signInWithLinks(page, 'Phone Rule Deli')
    await page.goto('/dashboard/events/new')
    const info = page.getByRole('region', { name: 'Business info' })
    await expect(info).toContainText('(217) 555-0148')
    await expect(info).not.toContainText('2175550148')
    await fillNewAd(page, 'Phone Rule Lunch')
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    await expect(page.getByTestId('customer-event-card')).toContainText('(217) 555-0148')
  })

  test('the moderation page shows contact phones by the same rule', async ({ page }) => {
    await signInAsStaff(page, demoAdmin.email)
    await page.goto('/admin')
    // The demo data has paid ads awaiting review uploaded today, with ten-digit contact phones.
    const phones = page.locator('dt', { hasText: 'Contact phone' }).locator('xpath=following-sibling::dd')
    await expect(phones.first()).toBeVisible()
    const shown = await phones.allInnerTexts()
    expect(shown.some((p) => /^\(\d{3}\) \d{3}-\d{4}$/.test(p))).toBe(true)
    for (const phone of shown) {
      if (phone.replace(/\D/g, '').length === 10) expect(phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/)
    }
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('the plain create page shows the business phone formatted', async ({ page }) => {
      await signInWithLinks(page, 'Phone Plain Deli')
      await page.goto('/dashboard/events/new')
      const info = page.getByRole('region', { name: 'Business info' })
      await expect(info).toContainText('(217) 555-0148')
      await expect(info).not.toContainText('2175550148')
    })
  })
})
