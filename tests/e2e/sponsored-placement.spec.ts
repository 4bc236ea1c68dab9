import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures.ts'
import { SPONSORED_AD_TITLE } from './sponsored-data.ts'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`the Sponsored label at ${viewport.width} px: in the slots above the results and first in the Featured strip, and in the embed`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.goto('/calendar')
    const slots = page.getByRole('list', { name: 'Sponsored events' })
    const slotCard = slots.getByTestId('calendar-event').filter({ hasText: SPONSORED_AD_TITLE })
    await expect(slotCard.getByText('Sponsored', { exact: true })).toBeVisible()
    await expect(slotCard.getByRole('link', { name: SPONSORED_AD_TITLE, exact: true })).toHaveAttribute(
      'ping',
      /\/view\?from=sponsored$/,
    )

    const firstFeatured = page.getByTestId('featured-event').first()
    await expect(firstFeatured).toContainText(SPONSORED_AD_TITLE)
    await expect(firstFeatured.getByText('Sponsored', { exact: true })).toBeVisible()

    // In its own place too, unlabelled there.
    const ownPlace = page
      .getByRole('list', { name: 'Events', exact: true })
      .getByTestId('calendar-event')
      .filter({ hasText: SPONSORED_AD_TITLE })
    await expect(ownPlace).toHaveCount(1)
    await expect(ownPlace.getByText('Sponsored', { exact: true })).toHaveCount(0)

    expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([])

    // A filter it does not match: no slot.
    await page.goto('/calendar?category=Concert')
    await expect(page.getByRole('list', { name: 'Sponsored events' })).toHaveCount(0)

    await page.goto('/embed/calendar')
    const line = page.getByRole('listitem').filter({ hasText: SPONSORED_AD_TITLE }).first()
    await expect(line.getByText('Sponsored', { exact: true })).toBeVisible()
    expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([])
    // The slot's title counts the click (its ping) and opens the event in a new tab, out of the frame.
    const [eventTab] = await Promise.all([
      page.context().waitForEvent('page'),
      line.getByRole('link', { name: SPONSORED_AD_TITLE, exact: true }).click(),
    ])
    await expect(eventTab).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
    await expect(eventTab.getByRole('heading', { level: 1 })).toContainText(SPONSORED_AD_TITLE)
    await eventTab.close()
  })
}
