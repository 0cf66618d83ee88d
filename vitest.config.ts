import { existsSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

const serverProject = (kind: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${kind}`,
    include: ['apps/server/src/**/*.test.ts'],
    environment: 'node',
    env: { DB_KIND: kind },
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // files of a worker share its one database (a PGlite takes seconds to start)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})

/** Domain, repo tooling (lint rules), server on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), and web components. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'tooling', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      ...(existsSync('apps/web/vitest.config.ts') ? ['apps/web/vitest.config.ts'] : []),
    ],
  },
})
