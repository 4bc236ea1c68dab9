import { defineConfig } from 'vitest/config'

/** The tests that store, serve or delete media: they run once more with the S3-compatible backend. */
const MEDIA_TESTS = [
  'tests/integration/media.test.ts',
  'tests/integration/event-create.test.ts',
  'tests/integration/event-edit.test.ts',
  'tests/integration/ad-revisions.test.ts',
  'tests/integration/seed-media.test.ts',
]

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup-database.ts', 'tests/support/fail-on-console-error.ts'],
    env: {
      NODE_ENV: 'test',
      APP_ENV: 'test',
      SESSION_SECRET: 'test-session-secret-at-least-32-characters-long',
      APP_TIME_ZONE: 'America/New_York',
    },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'local',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 's3',
          include: MEDIA_TESTS,
          globalSetup: ['tests/support/s3-global-setup.ts'],
          setupFiles: ['tests/support/s3-bucket.ts'],
        },
      },
    ],
  },
})
