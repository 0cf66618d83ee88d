import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { apiPost, confirmedAccount, deviceRequest, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'

/** The activation request-file picker: its drop zone, the keyboard, a junk file refused, a request file named. */

// each test signs up, drives several screens and takes screenshots at two widths: room for a busy machine
test.describe.configure({ timeout: 120_000 })

/** A device-bound Face SDK license for a client, made by a staff member through the API. */
async function offlineLicense(request: APIRequestContext, clientEmail: string) {
  const staff = await confirmedAccount(request)
  await portal('staff:grant', staff.email)
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

test('a drop zone with "Choose a request file"; a junk file is refused before any warning; a request file leads to it', async ({ page, playwright }) => {
  const client = await confirmedAccount(page.request)
  const staffRequest = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  const id = await offlineLicense(staffRequest, client.email)
  await staffRequest.dispose()
  const dir = mkdtempSync(join(tmpdir(), 'e2e-web2-'))
  const junk = join(dir, 'notes.txt')
  writeFileSync(junk, 'meeting notes\nnothing to do with licenses\n')
  const requestFile = join(dir, 'request.txt')
  writeFileSync(requestFile, deviceRequest({ serial: 'SN-7788', sensor: 'RealSense D455' }))

  // Playwright intercepts file choosers while the page has a 'filechooser' listener; each
  // waitForEvent alone would switch that off after its chooser and on again for the next, and a
  // chooser opened at once could slip past. One listener for the whole test keeps it on.
  page.on('filechooser', () => undefined)
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
