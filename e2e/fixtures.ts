import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import type axe from 'axe-core'
import { formatRequestFile } from '@portal/domain'
import { BASE_URL } from './playwright.config.ts'

export const DATA_DIR = process.env.E2E_DATA_DIR ?? '/tmp/portal-e2e-data'
export const PASSWORD = 'Str0ng-Pass'
const ROOT = join(import.meta.dirname, '..')

let counter = 0
/** A fresh address per call, so tests never share an account (the process id keeps parallel workers apart). */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}-${(counter++).toString(36)}@example.com`

/**
 * A portal command (`npm run portal -- <argv>`), run by the running portal: what the CLI does with
 * PGlite, where it hands the command over loopback with the token from DATA_DIR/portal.json,
 * without starting a process per command. Fails on a non-zero exit code.
 */
export async function portal(...argv: string[]): Promise<string> {
  const { token } = JSON.parse(readFileSync(join(DATA_DIR, 'portal.json'), 'utf8')) as { token: string }
  const res = await fetch(`${BASE_URL}/api/admin/cli/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': token },
    body: JSON.stringify({ argv }),
  })
  if (!res.ok) throw new Error(`portal ${argv.join(' ')}: ${res.status} ${await res.text()}`)
  const { code, output } = (await res.json()) as { code: number; output: string }
  if (code !== 0) throw new Error(`portal ${argv.join(' ')} exited with ${code}: ${output}`)
  return output
}

/** The portal's CLI as a customer runs it, in a process of its own (for what the CLI itself does). */
export function cli(...args: string[]): string {
  return execFileSync(process.execPath, ['apps/server/src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR, DATABASE_URL: '', NODE_COMPILE_CACHE: join(tmpdir(), 'portal-node-compile-cache') },
    encoding: 'utf8',
  })
}

/** The activation request file a device makes (what `license:request` writes). */
export const deviceRequest = (device: { serial: string; sensor?: string; reg?: string }) =>
  formatRequestFile({ serial: device.serial, sensor_name: device.sensor ?? null, reg: device.reg ?? null })

async function csrf(request: APIRequestContext): Promise<string> {
  const state = await request.storageState()
  let token = state.cookies.find((c) => c.name === 'csrftoken')?.value
  if (!token) {
    await request.get('/api/health/')
    token = (await request.storageState()).cookies.find((c) => c.name === 'csrftoken')!.value
  }
  return token
}

export async function apiPost(request: APIRequestContext, url: string, data: unknown, headers: Record<string, string> = {}) {
  return request.post(url, { data, headers: { ...headers, 'x-csrftoken': await csrf(request) } })
}

let addressCounter = 0
/**
 * A client address of its own for an account made through the API: the test server trusts
 * X-Forwarded-For from loopback (TRUST_PROXY), so the per-address sign-up and mail limits hold per
 * test account instead of adding up over the whole run.
 */
const clientAddress = () => `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${++addressCounter % 250}`

interface Mail {
  id: number
  to: string
  subject: string
  text: string
  html: string
  created_at: string
}

/** The newest mail to an address in the dev outbox, waiting for it to arrive. */
export async function lastMail(request: APIRequestContext, to: string, subject?: RegExp): Promise<Mail & { link: string }> {
  for (let i = 0; i < 50; i++) {
    const res = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)
    const { messages } = (await res.json()) as { messages: Mail[] }
    const mail = messages.find((m) => !subject || subject.test(m.subject))
    if (mail) return { ...mail, link: /https?:\/\/\S+\/app\/\S+/.exec(mail.text)![0] }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no mail to ${to}`)
}

/** Registers and confirms an account through the API and the dev mailbox. */
export async function confirmedAccount(request: APIRequestContext, email = uniqueEmail(), password = PASSWORD) {
  const signup = await apiPost(
    request,
    '/api/client/signup/',
    { username: email, email, password, is_corporate: false },
    { 'x-forwarded-for': clientAddress() },
  )
  expect(signup.status()).toBe(201)
  const mail = await lastMail(request, email)
  const [, id, token] = /\/registration-confirm\/(\d+)\/([\w-]+)\//.exec(mail.link)!
  expect((await apiPost(request, '/api/client/confirm/', { client_id: Number(id), confirmation_token: token })).ok()).toBe(true)
  return { email, password }
}

/** Signs the page's browser context in through the API (the cookies land in the browser). */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  // an address of its own too: the per-address sign-in counts would otherwise add up over the whole run
  const res = await apiPost(page.context().request, '/api/client/signin/', { username: email, password }, { 'x-forwarded-for': clientAddress() })
  expect(res.status(), await res.text()).toBe(200)
}

/**
 * The browser build axe-core ships for pages (its README's `axe.min.js`): the same rules as the
 * `axe.source` string its Node entry offers, at under half the size to send to each page and parse.
 */
const AXE_SCRIPT = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core on the page as it is: no serious or critical violation. axe-core's own API, as its docs
 * show for any test driver: its script evaluated in the page (once per document: a second check of
 * the same page reuses it), then `axe.run`. The portal's pages have no frames for axe to reach into.
 */
export async function expectAccessible(page: Page, name: string) {
  // a dialog fading in has its text at part opacity: axe judges the screen as it settles
  await settled(page)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SCRIPT)
  // only the violations are read, so axe builds selectors for no other result
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }))
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    bad.map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
  ).toEqual([])
}

const SHOTS = process.env.E2E_SHOTS_DIR ?? join(import.meta.dirname, 'screenshots')

/**
 * Waits until the page's CSS transitions and animations have ended: after a resize the shell's side
 * menu and main area slide for a moment, and a click in that moment can land beside its target.
 */
export async function settled(page: Page) {
  await page.evaluate(async () => {
    await new Promise(requestAnimationFrame)
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)))
  })
}

/**
 * Screenshots for a person to look at, taken only with E2E_SCREENSHOTS=1 (they assert nothing, and
 * each width costs a relayout and a full-page capture): at 1280, 800 and 390 px wide unless the test
 * names its widths, into E2E_SHOTS_DIR, else e2e/screenshots.
 */
export async function screenshots(page: Page, name: string, widths: readonly number[] = [1280, 800, 390]) {
  if (process.env.E2E_SCREENSHOTS !== '1') return
  mkdirSync(SHOTS, { recursive: true })
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    await settled(page)
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
  // back to the test's size, and still once the layout has moved back
  await page.setViewportSize(size)
  await settled(page)
}

/** One screenshot at the page's current width, named with it (`name-390.png`), for a person to look at (with E2E_SCREENSHOTS=1). */
export async function screenshotAtWidth(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS !== '1') return
  mkdirSync(SHOTS, { recursive: true })
  await settled(page)
  await page.screenshot({ path: join(SHOTS, `${name}-${page.viewportSize()?.width ?? 1280}.png`), fullPage: true })
}

/**
 * A console error fails the test: the app must not log errors while it works. The onboarding tour
 * opens by itself for a new client (and every test account is new), covering what a test clicks:
 * it counts as seen unless a test sets `tour: true` (the tour's own tests).
 */
export const test = base.extend<{ consoleErrors: string[]; tour: boolean }>({
  tour: [false, { option: true }],
  page: async ({ page, tour }, use) => {
    // a resource or code the portal's Content-Security-Policy refuses is an error, even where the
    // page catches it (an eval probe): the browser reports it, and Lighthouse counts it
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Content-Security-Policy violation: ${e.violatedDirective} refused ${e.blockedURI} in ${e.sourceFile}:${e.lineNumber}`),
      )
    })
    if (!tour) {
      await page.addInitScript(() => {
        const getItem = Storage.prototype.getItem
        Storage.prototype.getItem = function (key: string) {
          return key.startsWith('portal.tour.seen.') ? (getItem.call(this, key) ?? 'seen in an earlier session') : getItem.call(this, key)
        }
      })
    }
    await use(page)
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (msg) => {
        // a refused API call is logged by the browser itself; the test asserts the UI's answer
        if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text())
      })
      page.on('pageerror', (err) => errors.push(err.message))
      await use(errors)
      expect(errors, 'console errors').toEqual([])
    },
    { auto: true },
  ],
})
export { expect }
