import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './tests/e2e/chromium.ts'
import { E2E_MAILBOX_PORT, E2E_PORT as PORT, E2E_SMTP_PORT } from './tests/e2e/mailbox-ports.ts'
import { SMTP_PASSWORD, SMTP_USER } from './tests/support/smtp-credentials.ts'

export const E2E_DATA_DIR = path.resolve('tests/.tmp/e2e-data')

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Three browsers at once keep both cores busy while each waits on pages and the server (7.1 min against 8.6 with two).
  workers: 3,
  retries: 0,
  forbidOnly: true,
  // Upper bounds that catch a hang, not speed checks (speed has its benchmarks): a journey through several pages on
  // a busy 2-core machine, with two browsers at once, can take half a minute.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    // Recording a trace of every test costs a tenth of the run, and a run that only prints its output keeps none:
    // `npx playwright test <spec> --trace retain-on-failure` records one to read a failure with.
    trace: 'off',
  },
  webServer: [
    {
      // The mail server the app sends to, up before the app so its first email goes out at once
      // (tests/e2e/mailbox-server.ts; the tests read the mail with tests/e2e/mailbox.ts).
      command: 'tsx tests/e2e/mailbox-server.ts',
      url: `http://127.0.0.1:${E2E_MAILBOX_PORT}/messages`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The built app, as production serves it, on a fresh embedded database with the demo data and the journeys' own
      // rows (tests/e2e/seed.ts).
      command: `rm -rf "${E2E_DATA_DIR}" && tsx tests/e2e/seed.ts && node server.js`,
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        APP_ENV: 'test',
        // Email is sent, as in production, to the mail server above.
        SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${E2E_SMTP_PORT}`,
        DATA_DIR: E2E_DATA_DIR,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-000',
        // Every journey registers its own business from 127.0.0.1.
        REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
        // Every journey subscribes from 127.0.0.1 too.
        SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR: '1000',
        APP_TIME_ZONE: 'America/New_York',
        // Every trusted business's ad is sampled, so the journeys see the check list of auto-approved ads.
        TRUSTED_SAMPLE_PERCENT: '100',
        // "Fill from a link" may read the stand-in site tests/e2e/fill-from-link.spec.ts serves on loopback.
        LINK_FETCH_ALLOW_HOSTS: 'localhost',
        DATABASE_URL: '',
        STRIPE_SECRET_KEY: '',
        STRIPE_PUBLISHABLE_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
        OIDC_ISSUER: '',
        OIDC_CLIENT_ID: '',
        OIDC_CLIENT_SECRET: '',
      },
    },
  ],
})
