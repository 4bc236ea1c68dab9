import type { Page } from '@playwright/test'
import { formatRange } from '#app/models/calendar/listings.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { demoAdmin, expect, signInAsStaff, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const range = { from: today, to: addDaysIso(today, 6) }
const LISTINGS = `/admin/listings?from=${range.from}&to=${range.to}`

/** The paper sizes at 96 px an inch, portrait. */
const PAPER = {
  A4: { width: 794, height: 1123 },
  Letter: { width: 816, height: 1056 },
} as const

/** How many pages a PDF has: its page objects. */
function pageCount(pdf: Buffer) {
  return pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0
}

async function openListings(page: Page) {
  await signInAsStaff(page, demoAdmin.email)
  await page.goto(LISTINGS)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(formatRange(range))
}

test('the listings on screen: the filter form, the downloads and the days of the week', async ({ page }) => {
  await openListings(page)
  await expect(page.getByRole('form', { name: 'Choose the listings' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
    'href',
    `/admin/listings.csv?from=${range.from}&to=${range.to}`,
  )
  await expect(page.locator('main section h2').first()).toBeVisible()
  await expect(page.getByRole('banner').first()).toBeVisible()
})

for (const format of ['A4', 'Letter'] as const) {
  test(`printed on ${format}: no site chrome nor form, the range in the header, a page per day in two columns`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(PAPER[format])
    await openListings(page)
    await page.emulateMedia({ media: 'print' })

    // The site's header, navigation and footer, the filter form and the downloads are not printed.
    for (const hidden of [
      page.locator('body > header'),
      page.locator('body > footer'),
      page.getByRole('form', { name: 'Choose the listings' }),
      page.getByRole('navigation', { name: 'Downloads' }),
    ])
      await expect(hidden).toBeHidden()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Listings ${formatRange(range)}`)

    const days = page.locator('main section')
    const dayCount = await days.count()
    expect(dayCount, 'the demo data has ads on several days of the week').toBeGreaterThan(1)
    const layout = await days.evaluateAll((sections) =>
      sections.map((section) => ({
        breakBefore: getComputedStyle(section).breakBefore,
        columns: getComputedStyle(section.querySelector('ul')!).columnCount,
      })),
    )
    expect(layout[0]).toEqual({ breakBefore: 'auto', columns: '2' })
    for (const day of layout.slice(1)) expect(day).toEqual({ breakBefore: 'page', columns: '2' })

    await testInfo.attach(`listings-${format}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    })
    // On paper: at least a page per day, each day starting a page of its own.
    const pdf = await page.pdf({ format, printBackground: true })
    await testInfo.attach(`listings-${format}.pdf`, { body: pdf, contentType: 'application/pdf' })
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(dayCount)
  })
}
