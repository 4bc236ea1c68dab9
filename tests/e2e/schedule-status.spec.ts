import AxeBuilder from '@axe-core/playwright'
import { approveAsAdmin, expect, paidAd, signInAsNewBusiness, test } from './fixtures.ts'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

test('an advertiser marks a live ad postponed from its dashboard page and sees the status and the note', async ({
  browser,
  page,
}) => {
  await signInAsNewBusiness(page, 'Postponing Club')
  const title = `Rainy Day Fair ${Date.now().toString(36)}`
  const eventID = await paidAd(page, title)
  await approveAsAdmin(browser, eventID)

  await page.goto(`/dashboard/events/${eventID}`)
  const section = page.getByRole('region', { name: 'Is the event still on?' })
  await expect(section.getByTestId('schedule-status')).toHaveText('On as advertised')
  await expect(
    section.getByText('Marking an ad cancelled, postponed or sold out does not refund it.'),
  ).toBeVisible()
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])

  await section.getByRole('radio', { name: 'Postponed' }).check()
  await section.getByLabel('Note for visitors (optional)').fill('New date to follow')
  await section.getByRole('button', { name: 'Change the status' }).click()

  await expect(page).toHaveURL(new RegExp(`/dashboard/events/${eventID}$`))
  await expect(page.getByTestId('schedule-status')).toHaveText('Postponed')
  await expect(page.getByTestId('schedule-note')).toHaveText('New date to follow')
  await expect(page.getByTestId('ad-timeline')).toContainText('Marked postponed — New date to follow')
  // Back on is now a choice; Postponed is not.
  await expect(section.getByRole('radio', { name: 'Back on' })).toBeVisible()
  await expect(section.getByRole('radio', { name: 'Postponed' })).toHaveCount(0)
})
