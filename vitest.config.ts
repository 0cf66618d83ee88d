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

/**
 * The web app's tests in two environments: components (`.test.tsx`) in jsdom, and everything else
 * (rules, formatters, the translation tables, source scans) in plain Node, which starts in a fraction
 * of the time. A `.test.ts` that needs the DOM says so with a `// @vitest-environment jsdom` line.
 */
const webProject = (name: string, include: string, environment: 'jsdom' | 'node', setupFiles: string[]) => ({
  extends: './apps/web/vitest.config.ts',
  root: './apps/web',
  test: { name, include: [include], environment, setupFiles },
})

/** Domain, repo tooling (lint rules), server on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), and web components. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'tooling', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      webProject('web', 'src/**/*.test.tsx', 'jsdom', ['./src/test/setup.ts', './src/test/setup-dom.ts']),
      webProject('web-node', 'src/**/*.test.ts', 'node', ['./src/test/setup.ts']),
    ],
  },
})
