import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { buildVersion } from './build-version.ts'
import { precompress } from './build-compress.ts'
import { nonBlockingEntryCss } from './build-entry-css.ts'
import { moduleChunks } from './build-module-chunks.ts'
import { firstLoadChunks } from './build-first-load-chunks.ts'
import { mergeRefsForScrollArea } from './build-merge-refs.ts'
import { removeScrollForAppShell } from './build-remove-scroll.ts'
import { routePreloads } from './build-route-preloads.ts'
import { pureDomainConstants } from './build-pure-domain.ts'
import { dashboardFirstRequests } from './first-requests.ts'
// by path, not by package name: the config is bundled alone, and the package's entry is TypeScript
import { PLATFORMS } from '../../packages/domain/src/platforms.ts'

const api = 'http://localhost:3000'
const src = (path: string) => join(dirname(fileURLToPath(import.meta.url)), 'src', path)

/**
 * React Router's production build. Its package.json sends every import to dist/development (its
 * issue #14102), whose ENABLE_DEV_WARNINGS prints development warnings in a production build.
 * dist/production is the same code with the warnings off, and the minifier drops them.
 */
const reactRouterProduction = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production/index.mjs')

/**
 * A page's first load in three scripts (build-first-load-chunks.ts): React and the router; the entry,
 * with what the sign-in pages share with the signed-in shell; the shell with the dashboard, or the
 * login screen (a dashboard's first load was 16 scripts, the login's 6)
 */
const firstLoad = firstLoadChunks({
  vendor: { name: 'react', test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]/ },
  entry: {
    name: 'index',
    shares: ['login', 'registration', 'confirm', 'forgot-password', 'set-password'].map((page) => src(`features/auth/routes/${page}.tsx`)),
  },
  groups: [
    { name: 'shell', roots: [src('app/shell/Shell.tsx'), src('features/licenses/routes/dashboard.tsx'), src('app/prefetch-dashboard.ts')] },
    { name: 'login', roots: [src('features/auth/routes/login.tsx')] },
  ],
})

export default defineConfig(({ command }) => ({
  base: '/app/',
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  plugins: [
    react(),
    mergeRefsForScrollArea(),
    removeScrollForAppShell(),
    pureDomainConstants(),
    moduleChunks(),
    // the pages a visitor lands on: the server announces their screens' files with the entry
    routePreloads([
      { pattern: '^/app/login/$', modules: ['src/features/auth/routes/login.tsx'] },
      // each platform's dashboard: its screen's files, and the data it asks for as it opens
      ...PLATFORMS.map((platform) => ({
        pattern: `^/app/${platform}/dashboard/$`,
        modules: ['src/app/shell/Shell.tsx', 'src/features/licenses/routes/dashboard.tsx', 'src/app/prefetch-dashboard.ts'],
        signedIn: true,
        fetch: dashboardFirstRequests(platform),
      })),
    ]),
    firstLoad.plugin,
    nonBlockingEntryCss(),
    precompress(),
  ],
  // the menu's version label: the release (the root package.json) and the commit it was built from
  define: { 'import.meta.env.VITE_PORTAL_VERSION': JSON.stringify(buildVersion()) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each entry and lazy route loads (scripts/bundle-size.ts reads it)
    manifest: true,
    rollupOptions: {
      output: {
        // a screen's small shared pieces (Mantine components, API modules) join bigger chunks: on a
        // slow link each request costs a round trip, and a dashboard had 44 files to fetch
        experimentalMinChunkSize: 5_000,
        // build-first-load-chunks.ts: the first loads' chunks, and nothing else moved
        onlyExplicitManualChunks: true,
        manualChunks: firstLoad.manualChunks,
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/dev': api },
  },
}))
