import AxeBuilder from '@axe-core/playwright'
import type { Browser, Locator, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoAdmin,
  demoClinician,
  expect,
  fromSite,
  paidAd,
  PNG,
  signInAsNewBusiness,
  signInAsStaff,
  test,
} from './fixtures.ts'

/** WCAG 2.2 A and AA, as axe-core tags them. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const PHONE = { width: 375, height: 667 }
const DESKTOP = { width: 1280, height: 800 }

/** A role's browser context, signed in once per worker, and the pages that role sees (JavaScript on). */
interface Role {
  page: Page
  paths: string[]
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP })
  return { context, page: await context.newPage() }
}

/** Each role's context is made once in a worker, the first time a test there needs it. */
const roleTest = test.extend<object, { visitor: Role; advertiser: Role; admin: Role; clinician: Role }>({
  visitor: [
    async ({ browser }, use) => {
      const { context, page } = await newPage(browser)
      await use({ page, paths: await visitorPaths(page) })
      await context.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  advertiser: [
    async ({ browser }, use) => {
      const { context, page } = await newPage(browser)
      await use({ page, paths: await advertiserPaths(page) })
      await context.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  // After the advertiser's payment, whose email is in the outbox for the administrator to open.
  admin: [
    async ({ browser, advertiser }, use) => {
      void advertiser
      const { context, page } = await newPage(browser)
      await use({ page, paths: await adminPaths(page) })
      await context.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  clinician: [
    async ({ browser }, use) => {
      const { context, page } = await newPage(browser)
      await use({ page, paths: await clinicianPaths(page) })
      await context.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
})

function idFrom(href: string | null, pattern: RegExp) {
  const id = pattern.exec(href ?? '')?.[1]
  expect(id, `an id in ${href}`).toBeTruthy()
  return id!
}

async function visitorPaths(page: Page) {
  await page.goto('/calendar')
  const action = await page.locator('a[ping^="/event/"]').first().getAttribute('ping')
  const liveID = idFrom(action, /^\/event\/(\d+)\/view(?:\?from=sponsored)?$/)
  const businessPage = await page
    .getByRole('link', { name: /^More from / })
    .first()
    .getAttribute('href')
  expect(businessPage).toMatch(/^\/business\/\d+-[a-z0-9-]+$/)
  return [
    '/landing',
    '/public',
    '/calendar',
    '/calendar?view=month',
    '/embed',
    '/embed/calendar',
    `/event/${liveID}?viewMode=true`,
    `/event/${liveID}/report`,
    businessPage!,
    '/business/999999999-nobody',
    '/terms',
    '/',
    '/login',
    '/create-account',
    '/api/login',
    '/no-such-page',
    '/event/999999999?viewMode=true',
  ]
}

/**
 * A fresh advertiser with a paid ad (a receipt, an email in the outbox) and a draft with a photo at checkout. Its
 * name is one long word, as German and Dutch business names often are: its welcome email's subject must still fit a
 * phone's outbox.
 */
async function advertiserPaths(page: Page) {
  await signInAsNewBusiness(page, 'Bäckereigenossenschaftskaffeehaus')
  const paidID = await paidAd(page, 'Every Screen Quiz Night')

  // Two ads with photos saved, the second waiting at checkout, then a draft waiting at its preview.
  for (const title of ['Every Screen Poster Show', 'Every Screen Print Market']) {
    await stageDraft(page, title)
    const approved = await page.request.post(PREVIEW, {
      headers: fromSite(),
      form: { intent: 'approve' },
      maxRedirects: 0,
    })
    expect(approved.headers()['location']).toBe('/checkout')
  }
  await stageDraft(page, 'Every Screen Print Fair')

  await page.goto(`/dashboard/events/${paidID}`)
  const receiptHref = await page
    .getByRole('link', { name: /receipt/i })
    .first()
    .getAttribute('href')
  const paymentID = idFrom(receiptHref, /\/dashboard\/receipts\/(\d+)/)
  return [
    '/dashboard',
    '/dashboard/events/new',
    PREVIEW,
    '/checkout',
    `/dashboard/events/${paidID}`,
    `/dashboard/events/${paidID}/status`,
    `/dashboard/events/${paidID}/edit`,
    `/dashboard/receipts/${paymentID}`,
    `/event/${paidID}`,
    '/demo',
    '/customer-view-demo',
    '/file-storage-test',
    '/api/logout',
  ]
}

const PREVIEW = '/dashboard/events/preview'

/** The create form's post without JavaScript, with a photo: the draft waits on the server for its preview. */
async function stageDraft(page: Page, title: string) {
  const res = await page.request.post('/dashboard/events/new', {
    headers: fromSite(),
    multipart: {
      eventTitle: title,
      eventDescription: `${title}: posters from the whole town.`,
      eventCategory: 'Arts',
      showAdDates: addDaysIso(todayInZone('America/New_York'), 1),
      intent: 'preview',
      image: { name: 'poster.png', mimeType: 'image/png', buffer: PNG },
    },
    maxRedirects: 0,
  })
  expect(res.headers()['location'], await res.text()).toBe(PREVIEW)
}

async function adminPaths(page: Page) {
  await signInAsStaff(page, demoAdmin.email)
  await page.goto('/admin/outbox')
  const message = await page.getByTestId('outbox').getByRole('link').first().getAttribute('href')
  const messageID = idFrom(message, /\/admin\/outbox\/(\d+)/)
  await page.goto('/calendar')
  const action = await page.locator('a[ping^="/event/"]').first().getAttribute('ping')
  const liveID = idFrom(action, /^\/event\/(\d+)\/view(?:\?from=sponsored)?$/)
  return [
    '/admin',
    '/admin?date=all',
    '/admin/categories',
    '/admin/pricing',
    '/admin/promo-codes',
    '/admin/outbox',
    `/admin/outbox/${messageID}`,
    '/admin/reports',
    '/admin/audit',
    '/admin/listings',
    `/admin/events/${liveID}`,
    `/admin/events/${liveID}/status`,
  ]
}

async function clinicianPaths(page: Page) {
  await signInAsStaff(page, demoClinician.email)
  const res = await page.request.post('/api/ptdisease', {
    headers: fromSite(),
    data: { mrn: `MRN-A11Y-${Date.now().toString(36)}`, disease: 'Asthma', diseasecode: 'J45.909' },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { ptdiseaseID } = (await res.json()) as { ptdiseaseID: number }
  return [
    '/patient-diseases',
    '/patient-diseases/new',
    `/patient-diseases/${ptdiseaseID}/edit`,
    `/patient-diseases/${ptdiseaseID}/history`,
    `/patient-diseases/${ptdiseaseID}/delete`,
  ]
}

async function axeViolations(page: Page, path: string) {
  await page.goto(path)
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  return violations.map((v) => ({
    path,
    rule: v.id,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  }))
}

async function expectNoAxeViolations(role: Role) {
  await role.page.setViewportSize(DESKTOP)
  const violations = []
  for (const path of role.paths) violations.push(...(await axeViolations(role.page, path)))
  expect(violations).toEqual([])
}

roleTest.describe('no page has a WCAG 2.2 AA violation that axe-core finds', () => {
  // axe-core takes about a second a page on a busy machine.
  roleTest.describe.configure({ timeout: 120_000 })
  roleTest("the visitor's pages", async ({ visitor }) => expectNoAxeViolations(visitor))
  roleTest("the advertiser's pages", async ({ advertiser }) => expectNoAxeViolations(advertiser))
  roleTest("the administrator's pages", async ({ admin }) => expectNoAxeViolations(admin))
  roleTest("the clinician's pages", async ({ clinician }) => expectNoAxeViolations(clinician))
})

roleTest('at 375 px no page scrolls sideways', async ({ visitor, advertiser, admin, clinician }) => {
  roleTest.setTimeout(120_000)
  const wide: Array<{ path: string; overflow: number }> = []
  for (const role of [visitor, advertiser, admin, clinician]) {
    await role.page.setViewportSize(PHONE)
    for (const path of role.paths) {
      await role.page.goto(path)
      const overflow = await role.page.evaluate(() => {
        const root = document.scrollingElement!
        return root.scrollWidth - root.clientWidth
      })
      if (overflow > 0) wide.push({ path, overflow })
    }
  }
  expect(wide).toEqual([])
})

roleTest(
  'photos on the dashboard and in moderation: their copies, a reserved size, the first fetched first, the rest lazily',
  async ({ advertiser, admin }) => {
    const { page } = advertiser
    await page.goto('/dashboard')
    const cards = page.getByTestId('gallery-card')
    const withPhotos = cards.filter({ has: page.locator('img') })
    await expect(withPhotos).toHaveCount(2)
    await expect(cards.first().locator('img')).toHaveAttribute('fetchpriority', 'high')
    for (const photo of await cards.locator('img').all()) await expectStoredPhotoAttributes(photo)
    for (const photo of (await cards.locator('img').all()).slice(1)) {
      await expect(photo).toHaveAttribute('loading', 'lazy')
    }

    await admin.page.goto('/admin?date=all')
    const reviewed = admin.page.getByTestId('pending-event').locator('img')
    expect(await reviewed.count()).toBeGreaterThan(0)
    for (const photo of await reviewed.all()) {
      await expectStoredPhotoAttributes(photo)
      await expect(photo).toHaveAttribute('loading', 'lazy')
    }
  },
)

async function expectStoredPhotoAttributes(photo: Locator) {
  await expect(photo).toHaveAttribute('srcset', /-480w\.webp\S* 480w, \S+-960w\.webp\S* 960w/)
  await expect(photo).toHaveAttribute('sizes', /\S/)
  await expect(photo).toHaveAttribute('width', /^\d+$/)
  await expect(photo).toHaveAttribute('height', /^\d+$/)
}
