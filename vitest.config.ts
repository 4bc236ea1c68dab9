import fs from 'node:fs'
import path from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'

const TEST_FILE = /\.test\.tsx?$/
const TEST_FOLDERS = ['tests/unit', 'tests/integration']

function testFiles() {
  return TEST_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => TEST_FILE.test(file))
      .map((file) => path.join(folder, file).split(path.sep).join('/')),
  )
}

/**
 * Test files that load the built app or start the server in their own process. The bundle keeps its caches, and
 * the server its port, for the life of the process, so each of these files gets a fresh one; the others share
 * their worker's modules, which saves importing the app again for every file.
 */
const OWN_PROCESS_TESTS = testFiles().filter((file) =>
  /#tests\/support\/(built-app|running-server)\.ts/.test(fs.readFileSync(file, 'utf8')),
)

/** The tests that run on databases of their own (a private cluster, an embedded folder), whatever DATABASE_URL says. */
const OWN_DATABASE_TESTS = [
  'tests/integration/backup-restore.test.ts',
  'tests/integration/database-outage.test.ts',
  'tests/integration/dev-server.test.ts',
  'tests/integration/production-server.test.ts',
  'tests/integration/embedded-database.test.ts',
  'tests/integration/embedded-database-thread.test.ts',
  'tests/integration/embedded-server-lock.test.ts',
  'tests/integration/event-place-migration.test.ts',
  'tests/integration/data-folder-lock.test.ts',
  'tests/integration/shared-database.test.ts',
  'tests/integration/two-servers.test.ts',
  'tests/integration/rolling-deploy.test.ts',
  'tests/integration/server-edges.test.ts',
]
const onDatabaseServer = Boolean(process.env.DATABASE_URL)

/** The tests that store, serve or delete media: they run once more with the S3-compatible backend. */
const MEDIA_TESTS = [
  'tests/integration/media.test.ts',
  'tests/integration/event-create.test.ts',
  'tests/integration/event-edit.test.ts',
  'tests/integration/ad-revisions.test.ts',
  'tests/integration/seed-media.test.ts',
  'tests/integration/run-again.test.ts',
  'tests/integration/share-images.test.ts',
]

/** Every integration test file starts on its own copy of a database migrated once per run. */
const DATABASE_SETUP = {
  globalSetup: ['tests/support/global-setup.ts'],
  setupFiles: ['tests/support/setup-database.ts', 'tests/support/fail-on-console-error.ts'],
}

export default defineConfig({
  test: {
    env: {
      NODE_ENV: 'test',
      APP_ENV: 'test',
      SESSION_SECRET: 'test-session-secret-at-least-32-characters-long',
      APP_TIME_ZONE: 'America/New_York',
    },
    // A test file waits on its database and the servers it starts much of the time: three files at once keep both
    // cores busy (5 % idle) and finish the run 11 % sooner than two.
    maxWorkers: 3,
    testTimeout: 20_000,
    // As long as a server's start may take (waitUntilUp in tests/support/server-process.ts): a hook that starts one
    // would otherwise fail first, under load, for the same slow start.
    hookTimeout: 200_000,
    projects: [
      // Pure code: no database, no migrated template, so a unit file starts in milliseconds.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'local',
          ...DATABASE_SETUP,
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          exclude: [
            ...configDefaults.exclude,
            ...OWN_PROCESS_TESTS,
            ...(onDatabaseServer ? OWN_DATABASE_TESTS : []),
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'own-process',
          ...DATABASE_SETUP,
          include: OWN_PROCESS_TESTS,
          exclude: [...configDefaults.exclude, ...(onDatabaseServer ? OWN_DATABASE_TESTS : [])],
        },
      },
      // Media storage does not depend on the database, so the run on a PostgreSQL server leaves S3 out.
      ...(onDatabaseServer
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 's3',
                include: MEDIA_TESTS,
                globalSetup: [...DATABASE_SETUP.globalSetup, 'tests/support/s3-global-setup.ts'],
                setupFiles: [...DATABASE_SETUP.setupFiles, 'tests/support/s3-bucket.ts'],
              },
            },
          ]),
    ],
  },
})
