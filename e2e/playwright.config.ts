import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)
export const BASE_URL = `http://127.0.0.1:${PORT}`

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]
/** A desktop window in one of Debian's Chromium builds, with the flags above. */
const desktopIn = (executablePath: string) => ({
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  launchOptions: { executablePath, args: CHROMIUM_ARGS },
})

/**
 * The browser tests drive the production build that `npm start` serves (built by `npm run build`
 * first), on a fresh embedded database, in Debian's Chromium: its headless shell, and the full browser
 * for the tests that need it.
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
  },
  projects: [
    // Debian's chromium-headless-shell, the browser Playwright itself runs headless tests in: Blink
    // and V8 as in Chromium, without the desktop browser around them, at a little over half the CPU
    // (docs/adr/browser-tests-in-the-headless-shell.md); E2E_CHROMIUM names another build
    {
      name: 'chromium',
      grepInvert: /@full-browser/,
      use: desktopIn(process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell'),
    },
    // the tests tagged @full-browser need Debian's full Chromium: in the headless shell, a new tab's
    // redirect to another site escapes the context's routes, so the tab meets the closed network
    { name: 'chromium-full', grep: /@full-browser/, use: desktopIn('/usr/bin/chromium') },
  ],
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
