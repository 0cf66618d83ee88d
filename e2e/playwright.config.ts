import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)
export const BASE_URL = `http://127.0.0.1:${PORT}`

/**
 * The browser tests drive the production build that `npm start` serves (built by `npm run build`
 * first), on a fresh embedded database, in Debian's Chromium.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // every test makes its own accounts and data, so tests run in any order, side by side
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    // no trace by default: recording one streams a screenshot of every frame and snapshots the DOM
    // around every action, in every test, for a file no one reads after a green run; to see a
    // failure step by step, run with `--trace retain-on-failure`
    trace: 'off',
    screenshot: 'only-on-failure',
    // the app's theme honours the setting (respectReducedMotion): dialogs and the side menu appear
    // at once, so a test waits on what a screen shows rather than on its 350 ms transitions
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
  webServer: {
    // each run starts on an empty database: the server migrates and seeds it at start
    command: 'rm -rf "$DATA_DIR" && exec node apps/server/src/main.ts',
    cwd: '..',
    url: `${BASE_URL}/api/health/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '/tmp/portal-e2e-data',
      PUBLIC_URL: BASE_URL,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // the fixtures give each API-made account its own address (X-Forwarded-For from loopback)
      TRUST_PROXY: '127.0.0.1',
      // the smallest argon2id cost, for test suites (a production start refuses it): every test
      // signs up and signs in accounts of its own
      PASSWORD_HASH_COST: 'test',
    },
  },
})
