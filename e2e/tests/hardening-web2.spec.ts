import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { apiPost, cli, confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** Issue 9, items 19, 22, 23 and 24: the license table, pausing, the request-file picker, copy. */

// each test signs up, drives several screens and takes screenshots at two widths: room for a busy machine
test.describe.configure({ timeout: 120_000 })

/** A license made from the client's default group of `product`, through the API, with a title. */
async function generate(request: APIRequestContext, product: string, title: string): Promise<number> {
  const { groups } = (await (await request.get('/api/group/')).json()) as { groups: { id: number; product: string }[] }
  const group = groups.find((g) => g.product === product)!
  const res = await apiPost(request, `/api/group/${group.id}/new-license/`, { title })
  expect(res.ok(), await res.text()).toBe(true)
  const { licenses } = (await (await request.get('/api/license/')).json()) as { licenses: { id: number; title: string }[] }
  return licenses.find((l) => l.title === title)!.id
}

/** The rectangle of `inner` lies inside the visible part of `outer` and inside the viewport. */
async function expectWithin(page: Page, inner: Locator, outer: Locator) {
  const a = (await inner.boundingBox())!
  const b = (await outer.boundingBox())!
  const viewport = page.viewportSize()!
  expect(a.x).toBeGreaterThanOrEqual(b.x - 0.5)
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 0.5)
  expect(a.x + a.width).toBeLessThanOrEqual(viewport.width)
}

/** No element of the locator cuts its text: nothing scrolls inside it, and no ellipsis is drawn. */
async function expectWhole(badges: Locator) {
  const cut = await badges.evaluateAll((els) =>
    els
      .flatMap((el) => [el, ...Array.from(el.querySelectorAll('*'))])
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => el.textContent),
  )
  expect(cut).toEqual([])
}

// 68 characters, the length of titles customers gave their kiosks in the walkthrough
const LONG_TITLE = 'Reception kiosk, north lobby entrance, building B (second floor) #01'

test('item 19 and 24: a 68-character title at 1280 px keeps Key and Expires in view; badges whole; filters and expiry tell the truth', async ({ page }) => {
  expect(LONG_TITLE).toHaveLength(68)
  const client = await confirmedAccount(page.request)
  cli('licenses:grant', client.email, 'nuitrack_subscribe', '2', '--os-type', '1')
  cli('licenses:grant', client.email, 'nuitrack_ai_perpetual', '2')
  await signIn(page, client.email)
  const subId = await generate(page.request, 'nuitrack_subscribe', LONG_TITLE)
  await generate(page.request, 'nuitrack_ai_perpetual', 'Dance hall AI')

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/app/nuitrack/dashboard/')
  const table = page.getByTestId('license-table-scroll')
  const row = page.getByTestId('license-row').filter({ hasText: LONG_TITLE })
  await expect(row).toBeVisible()
  // the whole table fits at 1280 px: nothing to scroll, every Key and Expires cell inside it
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  for (const header of ['Key', 'Expires']) await expectWithin(page, page.getByRole('columnheader', { name: header }), table)
  const cells = row.getByRole('cell')
  await expectWithin(page, cells.nth(3), table)
  await expectWithin(page, cells.nth(4), table)
  // the full title is the link's name and shows on hover
  await expect(row.getByRole('link', { name: LONG_TITLE })).toHaveAttribute('title', LONG_TITLE)
  // badges never truncate
  await expect(page.getByTestId('status-badge').first()).toBeVisible()
  await expectWhole(page.getByTestId('status-badge'))
  for (const text of await page.getByTestId('status-badge').allTextContents()) expect(text).toMatch(/^(New|Active|Suspended|On hold|Paused)$/)
  // a subscription renews; it never "expires never"
  await expect(cells.nth(4)).toHaveText('Renews monthly')
  await expectAccessible(page, 'dashboard-long-title')
  await screenshots(page, 'dashboard-long-title')

  // narrower than the table: it scrolls sideways, and the columns are there to scroll to
  await page.setViewportSize({ width: 800, height: 900 })
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }))
  await expectWithin(page, page.getByRole('columnheader', { name: 'Expires' }), table)
  await expectWhole(page.getByTestId('status-badge'))
  await page.setViewportSize({ width: 1280, height: 800 })

  // the Perpetual filter holds AI perpetual (by the product's kind); Pro and AI does not
  await page.getByText('Perpetual', { exact: true }).click()
  await expect(page.getByRole('link', { name: 'Dance hall AI' })).toBeVisible()
  await expect(page.getByRole('link', { name: LONG_TITLE })).toHaveCount(0)
  await page.getByText('Pro and AI', { exact: true }).click()
  await expect(page.getByRole('link', { name: LONG_TITLE })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Dance hall AI' })).toHaveCount(0)

  // the info page: a subscription's expiry is its renewal, not "Never"
  await page.goto(`/app/nuitrack/dashboard/${subId}/info/`)
  const expires = page.getByText('Expires', { exact: true }).locator('xpath=..')
  await expect(expires).toContainText('Renews monthly')
  await expect(expires).not.toContainText('Never')
  await expectWhole(page.getByTestId('status-badge'))
  await screenshots(page, 'license-info-long-title')
})

test('item 22: pausing asks first (keyboard, focus trapped, consequences named); cancel does nothing; confirm shows Paused in badge and banner', async ({
  page,
}) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face-machine/dashboard/')
  await page.getByRole('button', { name: 'Start the 30-day Face Machine trial' }).click()
  await page.getByTestId('license-row').getByRole('link').click()
  await expect(page).toHaveURL(/\/app\/face-machine\/dashboard\/\d+\/info\/$/)
  const id = Number(/dashboard\/(\d+)\/info/.exec(page.url())![1])
  const badge = page.getByRole('heading', { level: 1 }).locator('xpath=..').getByTestId('status-badge')
  await expect(badge).toHaveText('New')
  const isPaused = async () => ((await (await page.request.get(`/api/license/${id}/`)).json()) as { config: { paused?: boolean } }).config.paused === true

  // one click only asks
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pause this trial?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('erased 30 days after pausing')
  await expect(dialog).toContainText('runs no transactions')
  // the safe answer has the focus; Tab stays inside the dialog
  await expect(dialog.getByRole('button', { name: 'Keep it running' })).toBeFocused()
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await expectAccessible(page, 'pause-dialog')
  await screenshots(page, 'pause-dialog')
  // Escape cancels; nothing changed
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  expect(await isPaused()).toBe(false)
  await expect(badge).toHaveText('New')
  // so does "Keep it running", by keyboard
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  await expect(dialog.getByRole('button', { name: 'Keep it running' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  expect(await isPaused()).toBe(false)

  // confirm pauses: badge, banner and subscription say so, and the trial countdown gives way
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  await dialog.getByRole('button', { name: 'Pause the trial' }).click()
  await expect(dialog).toBeHidden()
  await expect(badge).toHaveText('Paused')
  const banner = page.getByTestId('paused-banner')
  await expect(banner).toContainText('This trial is paused')
  await expect(page.getByText(/days? left in the trial/)).toHaveCount(0)
  await expect(page.getByText('Subscription', { exact: true }).locator('xpath=..')).toContainText('Paused')
  expect(await isPaused()).toBe(true)
  await expectAccessible(page, 'paused-license')
  await screenshots(page, 'paused-license')

  // the dashboard files it under Paused
  await page.goto('/app/face-machine/dashboard/')
  await expect(page.getByTestId('license-row').getByTestId('status-badge')).toHaveText('Paused')
  await expect(page.getByRole('tab', { name: 'Paused (1)' })).toBeEnabled()
  await screenshots(page, 'dashboard-paused')

  // the banner's own action resumes
  await page.getByTestId('license-row').getByRole('link').click()
  await banner.getByRole('button', { name: 'Resume the trial' }).click()
  await expect(badge).toHaveText('New')
  await expect(banner).toHaveCount(0)
  await expect(page.getByText(/days? left in the trial/)).toBeVisible()
})

/** A device-bound Face SDK license for a client, made by a staff member through the API. */
async function offlineLicense(request: APIRequestContext, clientEmail: string) {
  const staff = await confirmedAccount(request)
  cli('staff:grant', staff.email)
  expect((await apiPost(request, '/api/client/signin/', { username: staff.email, password: staff.password })).ok()).toBe(true)
  const res = await apiPost(request, '/api/resource/custom/create/', {
    title: 'Offline camera',
    count: 1,
    client_email: clientEmail,
    config: { product: 'face_offline_perpetual', license_expire_delta: null, device_bound: true, max_version: '3.24', license_content: { matcher: 1 } },
    custom_tags: {},
  })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { licenses: { id: number }[] }).licenses[0]!.id
}

test('item 23: a drop zone with "Choose a request file"; a junk file is refused before any warning; a request file leads to it', async ({
  page,
  playwright,
}) => {
  const client = await confirmedAccount(page.request)
  const staffRequest = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  const id = await offlineLicense(staffRequest, client.email)
  await staffRequest.dispose()
  const dir = mkdtempSync(join(tmpdir(), 'e2e-web2-'))
  const junk = join(dir, 'notes.txt')
  writeFileSync(junk, 'meeting notes\nnothing to do with licenses\n')
  const requestFile = join(dir, 'request.txt')
  cli('license:request', '--serial', 'SN-7788', '--sensor', 'RealSense D455', '--out', requestFile)

  await signIn(page, client.email)
  await page.goto(`/app/face/dashboard/${id}/info/`)
  const zone = page.getByTestId('request-file-zone')
  const choose = zone.getByText('Choose a request file')
  await expect(choose).toBeVisible()
  // the native input is the keyboard's way in: in the tab order, named by the visible action
  const input = page.getByLabel('Choose a request file')
  expect(await input.evaluate((el) => (el as HTMLInputElement).type === 'file' && el.tabIndex === 0)).toBe(true)
  await expectAccessible(page, 'request-file-zone')
  await screenshots(page, 'request-file-zone')

  // nothing chosen yet: a sentence about the request file
  await page.getByRole('button', { name: 'Activate' }).click()
  await expect(zone.getByRole('alert')).toHaveText('Choose the activation request file made on the device first.')
  await expect(page.getByText('You must upload license file before')).toHaveCount(0)

  // a junk file through the visible action: refused at once, no warning
  const chooser = page.waitForEvent('filechooser')
  await choose.click()
  await (await chooser).setFiles(junk)
  await expect(zone.getByRole('alert')).toHaveText(/^This is not a valid activation request file\./)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByRole('button', { name: 'Activate' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(zone.getByRole('alert')).toHaveText('Choose the activation request file made on the device first.')
  await screenshots(page, 'request-file-junk')

  // by keyboard: Tab reaches the input, its visible label shows the focus, Space opens the chooser
  await page.getByRole('link', { name: 'How to make a request file' }).focus()
  await page.keyboard.press('Tab')
  await expect(input).toBeFocused()
  expect(await zone.locator('label').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')
  const byKeyboard = page.waitForEvent('filechooser')
  await page.keyboard.press('Space')
  await (await byKeyboard).setFiles(junk)
  await expect(zone.getByRole('alert')).toHaveText(/^This is not a valid activation request file\./)

  // dropping the junk file is refused the same way
  const dropped = await page.evaluateHandle(() => {
    const dt = new DataTransfer()
    dt.items.add(new File(['not a request'], 'junk.bin'))
    return dt
  })
  await zone.dispatchEvent('drop', { dataTransfer: dropped })
  await expect(zone.getByRole('alert')).toHaveText(/^This is not a valid activation request file\./)

  // the real request file by keyboard-reachable input: the device is named, then the warning
  await input.setInputFiles(requestFile)
  await expect(page.getByTestId('request-file-chosen')).toHaveText('request.txt: device SN-7788 (RealSense D455)')
  await expect(zone.getByRole('alert')).toHaveCount(0)
  await expect(zone.getByText('Choose another request file')).toBeVisible()
  await page.getByRole('button', { name: 'Activate' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('The license will be bound to the device SN-7788 (RealSense D455)')
  await expectAccessible(page, 'request-file-warning')
  await screenshots(page, 'request-file-warning')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(((await (await page.request.get(`/api/license/${id}/`)).json()) as { activations: unknown[] }).activations).toHaveLength(0)
})

test('item 24: copy that matches the screen', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)

  // Face SDK has no trial: the empty table points to the basket (support for a custom license), the first steps start at fill
  await page.goto('/app/face/dashboard/')
  const empty = page.getByRole('alert').filter({ hasText: 'You have no licenses yet' })
  await expect(empty).toContainText('Buy one in the basket; for a custom license, contact support')
  await expect(empty.getByRole('link', { name: 'basket' })).toHaveAttribute('href', '/app/face/basket/')
  await expect(empty.getByRole('link', { name: /contact support/ })).toBeVisible()
  await expect(page.getByRole('region', { name: 'First steps' }).getByRole('button', { name: 'Add funds' })).toBeVisible()
  await screenshots(page, 'face-empty')

  // Nuitrack: the first steps are above while shown; after Hide the text offers them back
  await page.goto('/app/nuitrack/dashboard/')
  await expect(empty).toContainText('Start a trial in the first steps above or buy one in the basket')
  await page.getByRole('button', { name: 'Hide' }).click()
  await expect(page.getByRole('heading', { name: 'First steps' })).toHaveCount(0)
  await expect(empty).not.toContainText('first steps above')
  await expectAccessible(page, 'nuitrack-empty-hidden')
  await screenshots(page, 'nuitrack-empty-hidden')
  await empty.getByRole('button', { name: 'Show the first steps' }).click()
  await expect(page.getByRole('heading', { name: 'First steps' })).toBeVisible()
  await expect(empty).toContainText('Start a trial in the first steps above or buy one in the basket')

  // buying through /resource/create/ points to the basket, where paid licenses are bought
  const res = await apiPost(page.request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_ai_perpetual' } })
  expect(res.status()).toBe(400)
  const body = (await res.json()) as { error: string }
  expect(body.error).toMatch(/basket/)

  // an activated license: the devices to release are above the text that mentions them
  cli('licenses:bulk', client.email, '1')
  await page.goto('/app/nuitrack/dashboard/')
  await page.getByTestId('license-row').getByRole('link').first().click()
  const note = page.getByText('release a device in the Devices section above')
  await expect(note).toBeVisible()
  const devices = (await page.getByRole('heading', { name: 'Devices' }).boundingBox())!
  expect(devices.y).toBeLessThan((await note.boundingBox())!.y)
})
