import AxeBuilder from '@axe-core/playwright'
import { chromium, type Browser, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './chromium.ts'
import { approveAsAdmin, expect, paidAd, signInAsNewBusiness, test } from './fixtures.ts'

const PHONE = { width: 375, height: 667 }
const DESKTOP = { width: 1280, height: 900 }
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const EVENT_ADDRESS = /^\/event\/(\d+)-[a-z0-9-]+$/
/** A visitor's everyday browser: a headless browser's own user agent is, rightly, not counted. */
const REAL_BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** Each kind of list a visitor meets, and where its cards are. */
const CARD_KINDS = [
  { name: 'calendar grid', path: '/calendar', cards: '[data-testid="calendar-event"]' },
  { name: 'Featured strip', path: '/calendar', cards: '[data-testid="featured-event"]' },
  { name: 'public page', path: '/public', cards: '[data-testid="customer-event-card"]' },
  {
    name: 'month grid',
    path: '/calendar?view=month',
    cards: '[data-testid="calendar-month"] li:has(a[href^="/event/"])',
  },
  { name: 'embed', path: '/embed/calendar', cards: 'ul[aria-label="Upcoming events"] > li', newTab: true },
] as const

async function axeViolations(page: Page) {
  return (await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations
}

/** The title link of the first card of a kind: a real link to the event's own address, which it opens. */
async function followFirstTitleLink(page: Page, cards: string, newTab = false) {
  const card = page.locator(cards).first()
  const link = card.locator('a[href^="/event/"]:not([tabindex="-1"])').first()
  const href = await link.getAttribute('href')
  expect(href).toMatch(EVENT_ADDRESS)
  const title = (await link.innerText()).trim()
  // The embed sits in another site's page: its links open the event in a tab of its own.
  const [opened] = await Promise.all([newTab ? page.context().waitForEvent('page') : page, link.click()])
  await expect(opened).toHaveURL(new RegExp(`${href}$`))
  await expect(opened.getByRole('heading', { level: 1 })).toContainText(title.slice(0, 20))
}

for (const javaScriptEnabled of [false, true]) {
  for (const viewport of [PHONE, DESKTOP]) {
    test.describe(`${viewport.width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ viewport, javaScriptEnabled })

      for (const kind of CARD_KINDS) {
        test(`a ${kind.name} card's title is a link to the event's page`, async ({ page }) => {
          await page.goto(kind.path)
          await followFirstTitleLink(page, kind.cards, 'newTab' in kind)
        })
      }

      test("a business page's card is a link to the event's page", async ({ page }) => {
        await page.goto('/calendar')
        await page
          .getByRole('link', { name: /^More from / })
          .first()
          .click()
        await expect(page).toHaveURL(/\/business\/\d+-/)
        await followFirstTitleLink(page, '[data-testid="calendar-event"]')
      })
    })
  }
}

// axe runs as a script in the page, so it needs JavaScript; the lists are the same plain HTML without it.
for (const viewport of [PHONE, DESKTOP]) {
  test(`the lists with links pass axe at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport)
    for (const path of ['/calendar', '/public', '/calendar?view=month', '/embed/calendar']) {
      await page.goto(path)
      expect(await axeViolations(page), path).toEqual([])
    }
  })
}

test('a crawler reading /calendar by plain HTTP finds a link to every listed event', async ({ request }) => {
  const listed = (await (await request.get('/api/events')).json()) as Array<{ eventID: number }>
  expect(listed.length).toBeGreaterThan(0)
  const found = new Set<number>()
  let next: string | null = '/calendar'
  for (let pages = 0; next && pages < 20; pages++) {
    const html = await (await request.get(next)).text()
    for (const match of html.matchAll(/<a href="\/event\/(\d+)-[a-z0-9-]+"/g)) found.add(Number(match[1]))
    next = /<a href="([^"]+)" rel="next"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null
  }
  expect([...found].sort()).toEqual(expect.arrayContaining(listed.map((e) => e.eventID).sort()))
})

/** A new live ad of a new advertiser, and the advertiser's page to read its clicks from. */
async function liveAd(browser: Browser, title: string) {
  const advertiser = await browser.newPage()
  await signInAsNewBusiness(advertiser, `${title} Club`)
  const eventID = await paidAd(advertiser, title)
  await approveAsAdmin(browser, eventID)
  return { advertiser, eventID }
}

async function expectClicks(advertiser: Page, title: string, clicks: number) {
  const card = advertiser.getByTestId('gallery-card').filter({ hasText: title })
  await expect(async () => {
    await advertiser.goto('/dashboard')
    await expect(card.getByTestId('event-clicks')).toHaveText(String(clicks), { timeout: 500 })
  }).toPass({ timeout: 10_000 })
}

test.describe('clicks on a card link', () => {
  let visitorBrowser: Browser
  test.beforeAll(async () => {
    // The user agent is the whole browser's: a ping leaves with it, not with a page's override.
    visitorBrowser = await chromium.launch({
      executablePath: findChromium(),
      args: [...CHROMIUM_ARGS, `--user-agent=${REAL_BROWSER}`],
    })
  })
  test.afterAll(async () => visitorBrowser.close())

  async function visitorOn(title: string, javaScriptEnabled = true) {
    const visitor = await visitorBrowser.newPage({
      baseURL: test.info().project.use.baseURL,
      javaScriptEnabled,
    })
    await visitor.goto(`/calendar?keyword=${encodeURIComponent(title)}`)
    await expect(visitor.getByRole('heading', { name: 'We found 1 event(s) for you!' })).toBeVisible()
    return {
      visitor,
      link: visitor.getByRole('list', { name: 'Events' }).getByRole('link', { name: title, exact: true }),
    }
  }

  test('a middle click opens the event in a new tab and is counted once', async ({ browser }) => {
    const title = `Middle Click Social ${Date.now().toString(36)}`
    const { advertiser, eventID } = await liveAd(browser, title)
    const { visitor, link } = await visitorOn(title, false)
    const [tab] = await Promise.all([
      visitor.context().waitForEvent('page'),
      link.click({ button: 'middle' }),
    ])
    await expect(tab).toHaveURL(new RegExp(`/event/${eventID}-middle-click-social-`))
    await expectClicks(advertiser, title, 1)
  })

  test('Enter on a focused title link opens the event and is counted once', async ({ browser }) => {
    const title = `Keyboard Social ${Date.now().toString(36)}`
    const { advertiser, eventID } = await liveAd(browser, title)
    const { visitor, link } = await visitorOn(title)
    await link.focus()
    await visitor.keyboard.press('Enter')
    await expect(visitor).toHaveURL(new RegExp(`/event/${eventID}-keyboard-social-`))
    await expectClicks(advertiser, title, 1)
  })

  test('a prefetch of the link, then a crawler and a copied address, count nothing', async ({ browser }) => {
    const title = `Prefetched Social ${Date.now().toString(36)}`
    const { advertiser } = await liveAd(browser, title)
    const { visitor, link } = await visitorOn(title)
    const href = (await link.getAttribute('href'))!
    const prefetch = await visitor.request.get(href, { headers: { 'Sec-Purpose': 'prefetch' } })
    expect(prefetch.status()).toBe(200)
    // A GET of the click counter itself (someone copied the ping's address) counts nothing either.
    expect(
      (await visitor.request.get((await link.getAttribute('ping'))!, { maxRedirects: 0 })).status(),
    ).toBe(303)
    await expectClicks(advertiser, title, 0)
    // The click itself still counts.
    await link.click()
    await expectClicks(advertiser, title, 1)
  })
})
