import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const SERVER_TESTS = 'apps/server/src/**/*.test.ts'

/**
 * With TEST_DATABASE_URL set (CI), the whole server suite runs on PostgreSQL, the production engine,
 * and PGlite runs only what depends on the engine: the migrations (the global setup applies them to
 * the snapshot), the database adapter and connection handling, the job queue and the CLI (which
 * open the database themselves), the concurrency tests (PGlite queues what PostgreSQL runs in
 * parallel), and one smoke file per module. Without TEST_DATABASE_URL everything runs on PGlite.
 */
const PGLITE_BESIDE_POSTGRES = [
  'apps/server/src/db/**/*.test.ts',
  'apps/server/src/cli/**/*.test.ts',
  'apps/server/src/platform/jobs.test.ts',
  'apps/server/src/platform/rate-limit.test.ts',
  // the shared secrets: made once on a new database, imported, refused under another master key
  'apps/server/src/platform/secrets.test.ts',
  'apps/server/src/modules/*/concurrency.test.ts',
  // one smoke file per module
  'apps/server/src/modules/account/account.test.ts',
  'apps/server/src/modules/activation/activation.test.ts',
  'apps/server/src/modules/activity/activity.test.ts',
  'apps/server/src/modules/analytics/analytics.test.ts',
  'apps/server/src/modules/auth/signin.test.ts',
  'apps/server/src/modules/balance/adjust.test.ts',
  'apps/server/src/modules/basket/purchase.test.ts',
  'apps/server/src/modules/cloud/cloud.test.ts',
  'apps/server/src/modules/devmail/devmail.test.ts',
  'apps/server/src/modules/feedback/feedback.test.ts',
  'apps/server/src/modules/health/health.test.ts',
  'apps/server/src/modules/licenses/smoke.test.ts',
  'apps/server/src/modules/links/links.test.ts',
  'apps/server/src/modules/orgs/orgs.test.ts',
  'apps/server/src/modules/payments/sandbox.test.ts',
  'apps/server/src/modules/promo/promo.test.ts',
  'apps/server/src/modules/subscriptions/terms.test.ts',
  'apps/server/src/modules/support/support.test.ts',
  'apps/server/src/modules/transactions/transactions.test.ts',
  'apps/server/src/modules/upgrades/sandbox-upgrade.test.ts',
]

const serverProject = (kind: 'pglite' | 'postgres', include: string[]) => ({
  test: {
    name: `server-${kind}`,
    include,
    environment: 'node',
    env: { DB_KIND: kind },
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // files of a worker share its one database (a PGlite takes seconds to start)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})

/**
 * The web app's tests in two environments: components (`.test.tsx`) in jsdom, and everything else
 * (rules, formatters, the translation tables, source scans) in plain Node, which starts in a fraction
 * of the time. A `.test.ts` that needs the DOM says so with a `// @vitest-environment jsdom` line.
 * Both share a process per worker (`isolate: false`), as every project here does.
 */
const webProject = (name: string, include: string, environment: 'jsdom' | 'node', setupFiles: string[]) => ({
  extends: './apps/web/vitest.config.ts',
  root: './apps/web',
  test: { name, include: [include], environment, setupFiles, isolate: false },
})

/** Domain, repo tooling (lint rules), server on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), and web components. */
export default defineConfig({
  test: {
    // every core: Vitest's default leaves one for its own process, which on the 2-core CI machine
    // runs the test files one after another while a core waits
    maxWorkers: availableParallelism(),
    projects: [
      // pure logic and source scans: the files of a worker share one process (Vitest's isolate: false)
      // instead of a process started for each; they keep no state between files (a test that sets
      // process.env puts it back)
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node', isolate: false } },
      { test: { name: 'tooling', include: ['scripts/**/*.test.ts'], environment: 'node', isolate: false } },
      ...(process.env.TEST_DATABASE_URL
        ? [serverProject('postgres', [SERVER_TESTS]), serverProject('pglite', PGLITE_BESIDE_POSTGRES)]
        : [serverProject('pglite', [SERVER_TESTS])]),
      // the component files of a worker share one module graph and one jsdom (the app and its lazy
      // screens load once per worker, not once per file); setup-dom.ts resets between tests what
      // lives in them: the DOM, the app's module stores, Mantine's notifications, storage and cookies
      webProject('web', 'src/**/*.test.tsx', 'jsdom', ['./src/test/setup.ts', './src/test/setup-dom.ts']),
      webProject('web-node', 'src/**/*.test.ts', 'node', ['./src/test/setup.ts']),
    ],
  },
})
