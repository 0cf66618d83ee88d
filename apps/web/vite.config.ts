import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const api = 'http://localhost:3000'

export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5173,
    proxy: { '/api': api, '/dev': api },
  },
})
