import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, expectNoScripts, test } from './fixtures.ts'

test.use({ javaScriptEnabled: false })

test('a partner chooses filters on /embed without JavaScript, copies the code and sees the live preview', async ({
  page,
  baseURL,
}) => {
  await page.goto('/embed')
  await expectNoScripts(page)
  const preview = page.frameLocator('iframe[title="Upcoming events from EventShout"]')
  await expect(preview.locator('a[href^="/event/"]').first()).toBeVisible()

  await page.getByLabel('Category').selectOption('Concert')
  await page.getByRole('button', { name: 'Update the code' }).click()
  await expect(page).toHaveURL(/\/embed\?.*category=Concert/)
  const snippet = page.getByLabel('Code to paste into your page')
  await expect(snippet).toHaveValue(
    new RegExp(`^<iframe src="${baseURL!.replaceAll('.', '\\.')}/embed/calendar\\?category=Concert" `),
  )
  // The preview is the framed list itself, filtered the same way.
  const links = preview.locator('a[href^="/event/"]')
  await expect(links.first()).toBeVisible()
  await expect(links.first()).toHaveAttribute('target', '_blank')
  await expect(links.first()).toHaveAttribute('rel', 'noopener')
})

/** A partner's site: another origin (its own port) whose page frames `paths` of the app. */
async function partnerSite(baseURL: string, paths: Record<string, string>) {
  const frames = Object.entries(paths)
    .map(([name, path]) => `<iframe name="${name}" src="${baseURL}${path}"></iframe>`)
    .join('')
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><title>Partner</title>${frames}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('another site can frame the embed, but not the calendar', async ({
  page,
  baseURL,
  consoleErrors,
}, testInfo) => {
  // The refused frame is reported in the console by the browser.
  testInfo.annotations.push({ type: 'expect-console-errors', description: 'frame-ancestors refusal' })
  const partner = await partnerSite(baseURL!, { embed: '/embed/calendar', calendar: '/calendar' })
  try {
    await page.goto(partner.url)
    const embed = page.frameLocator('iframe[name="embed"]')
    await expect(embed.locator('a[href^="/event/"]').first()).toBeVisible()
    await expect(embed.getByRole('link', { name: 'More events on EventShout' })).toHaveAttribute(
      'target',
      '_blank',
    )
    await expect(embed.getByText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/).first()).toBeVisible()
    // The calendar, and only it, is refused by the browser for its frame-ancestors 'none'.
    const refusals = () =>
      consoleErrors.filter((e) => /^Framing '.*' violates .*frame-ancestors 'none'/.test(e))
    await expect.poll(() => refusals().length).toBe(1)
    await expect(
      page.frameLocator('iframe[name="calendar"]').getByText('Every Event Deserves a Shout.'),
    ).toHaveCount(0)
  } finally {
    await partner.close()
  }
})

test('on a phone (375 px) neither the embed page nor the framed list scrolls sideways', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 375, height: 667 },
    javaScriptEnabled: false,
  })
  const page = await context.newPage()
  for (const path of ['/embed', '/embed/calendar']) {
    await page.goto(path)
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow, path).toBe(0)
  }
  await context.close()
})
