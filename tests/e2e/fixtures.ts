import { test as base, expect, type Page } from '@playwright/test'
import { DEMO_BUSINESSES, DEMO_STAFF } from '#db/demo-data.ts'

export const demoBusiness = DEMO_BUSINESSES[0]
export const otherDemoBusiness = DEMO_BUSINESSES[1]
export const demoAdmin = DEMO_STAFF[0]!
export const demoClinician = DEMO_STAFF[1]!

/** Fails the test when the page logs an error or breaks the content security policy. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        // A page that answers 4xx on purpose (404 screen, 403) makes the browser log its own status.
        const isDocumentStatus =
          message.text().startsWith('Failed to load resource') && message.location().url === page.url()
        if (!isDocumentStatus) errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await use(errors)
    },
    { auto: true },
  ],
})

test.afterEach(async ({ consoleErrors }, testInfo) => {
  const expected = testInfo.annotations.some((a) => a.type === 'expect-console-errors')
  if (!expected) expect(consoleErrors, 'errors in the browser console').toEqual([])
})

export { expect }

export async function expectNoScripts(page: Page) {
  expect(await page.locator('script[src], script[type="module"]').count()).toBe(0)
}
