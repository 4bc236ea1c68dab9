import type { Browser } from '@playwright/test'
import {
  demoAdmin,
  expect,
  paidAd,
  signInAsNewBusiness,
  signInAsStaff,
  test,
  waitForEventFormHydrated,
} from './fixtures.ts'

const REASON = 'Please add the start time to the description'

/**
 * The whole loop in one browser mode: an administrator requests changes with a reason, the advertiser reads it,
 * edits the paid ad and sends it for review again (no payment), the administrator approves it, and it is live.
 */
async function reviewLoop(browser: Browser, javaScriptEnabled: boolean) {
  const label = javaScriptEnabled ? 'Scripted' : 'Plain'
  const title = `${label} Loop Social`
  const fixed = `${label} Loop Social at 7 pm`

  // Paying needs the card form's script; the rest runs in the mode under test with the same sign-in.
  const payer = await browser.newContext()
  const payerPage = await payer.newPage()
  await signInAsNewBusiness(payerPage, `${label} Loop Club`)
  const eventID = await paidAd(payerPage, title)
  const advertiserContext = await browser.newContext({
    javaScriptEnabled,
    storageState: await payer.storageState(),
  })
  await payer.close()
  const advertiser = await advertiserContext.newPage()

  const admin = await browser.newPage({ javaScriptEnabled })
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto('/admin')
  // An ad's own item in the queue, by its title's heading: the item of a similar ad may name it as a possible duplicate.
  const queued = (name: string) =>
    admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name, exact: true }) })
  const item = queued(title)
  await expect(item.getByTestId('customer-event-card')).toContainText(`${title}: come and see.`)
  await item.getByLabel(/^Reason/).fill(REASON)
  await item.getByRole('button', { name: 'Request changes' }).click()
  await expect(queued(title)).toHaveCount(0)

  await advertiser.goto('/dashboard')
  const card = advertiser.getByTestId('gallery-card').filter({ hasText: title })
  await expect(card.getByTestId('event-status')).toHaveText('Changes requested')
  await expect(card.getByTestId('review-reason')).toContainText(REASON)
  await card.getByRole('link', { name: 'Edit and resubmit' }).click()
  await expect(advertiser).toHaveURL(new RegExp(`/dashboard/events/${eventID}/edit$`))
  const editDialog = advertiser.getByRole('dialog', { name: 'Edit Event Listing' })
  await expect(editDialog.getByTestId('review-reason')).toContainText(REASON)
  await advertiser.getByLabel('Title').fill(fixed)
  await advertiser.getByLabel('Description').fill('Doors open at 7 pm: come and see.')
  await advertiser.getByRole('button', { name: 'Ready to Preview' }).click()
  await advertiser.getByRole('button', { name: 'Send for review' }).click()
  await expect(advertiser).toHaveURL(new RegExp(`/event/${eventID}$`))
  await expect(advertiser.getByTestId('event-status')).toHaveText('Awaiting review')
  await expect(advertiser).not.toHaveURL(/checkout/)

  await admin.goto('/admin')
  const resubmitted = queued(fixed)
  await expect(resubmitted).toContainText(REASON)
  await resubmitted.getByRole('button', { name: 'Approve' }).click()
  await expect(queued(fixed)).toHaveCount(0)

  const visitor = await browser.newPage()
  expect((await visitor.goto(`/event/${eventID}?viewMode=true`))?.status()).toBe(200)
  await expect(visitor.getByRole('heading', { name: fixed })).toBeVisible()
  await advertiser.goto('/dashboard')
  await expect(
    advertiser.getByTestId('gallery-card').filter({ hasText: fixed }).getByTestId('event-status'),
  ).toHaveText('Live')

  // Both emails to the advertiser are in the outbox, which lists every email, sent or not.
  await admin.goto('/admin/outbox')
  const outbox = admin.getByTestId('outbox')
  await expect(
    outbox.getByRole('link', { name: `Changes requested for your ad: ${title}`, exact: true }),
  ).toBeVisible()
  await expect(outbox.getByRole('link', { name: `Your ad is live: ${fixed}`, exact: true })).toBeVisible()
  await Promise.all([advertiserContext.close(), admin.close(), visitor.close()])
}

test('request changes → the advertiser fixes and resubmits → approved and live, with JavaScript', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  await reviewLoop(browser, true)
})

test('request changes → the advertiser fixes and resubmits → approved and live, without JavaScript', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  await reviewLoop(browser, false)
})

/**
 * An edit of a live ad in one browser mode: it waits as a revision while visitors keep seeing the live version, the
 * administrator sees the change field by field and approves it, and visitors then see the new version.
 */
async function revisionLoop(browser: Browser, javaScriptEnabled: boolean) {
  const label = javaScriptEnabled ? 'Scripted' : 'Plain'
  const title = `${label} Live Supper`
  const revised = `${label} Live Supper with dessert`

  const payer = await browser.newContext()
  const payerPage = await payer.newPage()
  await signInAsNewBusiness(payerPage, `${label} Revising Club`)
  const eventID = await paidAd(payerPage, title)
  const advertiserContext = await browser.newContext({
    javaScriptEnabled,
    storageState: await payer.storageState(),
  })
  await payer.close()
  const advertiser = await advertiserContext.newPage()
  const admin = await browser.newPage({ javaScriptEnabled })
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto('/admin')
  await admin
    .getByRole('listitem')
    .filter({ hasText: title })
    .getByRole('button', { name: 'Approve' })
    .click()
  await expect(admin.getByRole('listitem').filter({ hasText: title })).toHaveCount(0)

  await advertiser.goto(`/event/${eventID}`)
  await expect(advertiser.getByTestId('event-status')).toHaveText('Live')
  await advertiser.getByRole('link', { name: 'Edit Event' }).click()
  await expect(advertiser).toHaveURL(new RegExp(`/dashboard/events/${eventID}/edit$`))
  if (javaScriptEnabled) await waitForEventFormHydrated(advertiser)
  await advertiser.getByLabel('Title').fill(revised)
  await advertiser.getByRole('button', { name: 'Ready to Preview' }).click()
  const sent = javaScriptEnabled
    ? advertiser.waitForResponse((response) => response.url().endsWith('/api/approve-event'))
    : null
  await advertiser.getByRole('button', { name: 'Send for review' }).click()
  if (sent) {
    const answer = await sent
    expect(answer.status(), await answer.text()).toBe(200)
  }
  await expect(advertiser).toHaveURL(new RegExp(`/event/${eventID}$`))
  await expect(advertiser.getByTestId('edit-note')).toContainText('Your changes await review')

  const visitor = await browser.newPage()
  await visitor.goto(`/event/${eventID}?viewMode=true`)
  await expect(visitor.getByRole('heading', { name: title, exact: true })).toBeVisible()

  await admin.goto('/admin')
  const item = admin
    .getByRole('listitem')
    .filter({ hasText: 'Changes to a live ad' })
    .filter({ hasText: revised })
  const titleRow = item.getByTestId('revision-changes').locator('tr[data-field="eventTitle"]')
  await expect(titleRow.getByTestId('change-old')).toHaveText(title)
  await expect(titleRow.getByTestId('change-new')).toHaveText(revised)
  await item.getByRole('button', { name: 'Approve' }).click()
  await expect(admin.getByRole('listitem').filter({ hasText: revised })).toHaveCount(0)

  await visitor.goto(`/event/${eventID}?viewMode=true`)
  await expect(visitor.getByRole('heading', { name: revised })).toBeVisible()
  await Promise.all([advertiserContext.close(), admin.close(), visitor.close()])
}

test('an edit of a live ad waits for approval while the live version stays, with JavaScript', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  await revisionLoop(browser, true)
})

test('an edit of a live ad waits for approval while the live version stays, without JavaScript', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  await revisionLoop(browser, false)
})
