import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { buildVersion } from './build-version.ts'
import { precompress } from './build-compress.ts'

const api = 'http://localhost:3000'

/**
 * Vite's stock build: content-hashed files under assets/ (the server caches them for a year), one
 * chunk per lazy route as Vite splits them, and brotli and gzip siblings written once at build time.
 */
export default defineConfig({
  base: '/app/',
  plugins: [react(), precompress()],
  // the menu's version label: the release (the root package.json) and the commit it was built from
  define: { 'import.meta.env.VITE_PORTAL_VERSION': JSON.stringify(buildVersion()) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each entry and lazy route loads (scripts/bundle-size.ts reads it)
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/dev': api },
  },
})
