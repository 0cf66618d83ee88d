import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { buildVersion } from './build-version.ts'

/**
 * What the web app's tests share: the React transform and the app's defines. The projects that use
 * it (which files, in which environment) are in the root vitest.config.ts.
 */
export default defineConfig({
  plugins: [react()],
  define: { 'import.meta.env.VITE_PORTAL_VERSION': JSON.stringify(buildVersion()) },
  root: import.meta.dirname,
  test: {
    css: false,
    // a ceiling, not a measure: npm test runs these beside the browser tests on two cores, where a
    // full-app render with typing gets a fraction of a core
    testTimeout: 30_000,
  },
})
