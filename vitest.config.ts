import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}'],
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
  },
})
