import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { buildVersion } from './build-version.ts'

export default defineConfig({
  plugins: [react()],
  define: { 'import.meta.env.VITE_PORTAL_VERSION': JSON.stringify(buildVersion()) },
  root: import.meta.dirname,
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    testTimeout: 15_000,
  },
})
