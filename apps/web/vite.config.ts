import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { buildVersion } from './build-version.ts'

const api = 'http://localhost:3000'

export default defineConfig({
  base: '/app/',
  plugins: [react()],
  // the menu's version label: the release (the root package.json) and the commit it was built from
  define: { 'import.meta.env.VITE_PORTAL_VERSION': JSON.stringify(buildVersion()) },
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5173,
    proxy: { '/api': api, '/dev': api },
  },
})
