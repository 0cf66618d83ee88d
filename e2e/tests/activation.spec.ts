import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { apiPost, cli, confirmedAccount, expect, expectAccessible, screenshots, signIn, test, portal, deviceRequest } from '../fixtures.ts'

/** Custom Face SDK licenses for a client, made by a staff member through the API. */
async function staffLicense(request: APIRequestContext, clientEmail: string, customTags: Record<string, unknown>, deviceBound: boolean) {
  const staff = await confirmedAccount(request)
  await portal('staff:grant', staff.email)
  expect((await apiPost(request, '/api/client/signin/', { username: staff.email, password: staff.password })).ok()).toBe(true)
  const res = await apiPost(request, '/api/resource/custom/create/', {
    title: deviceBound ? 'Offline camera' : 'USB workstation',
    count: 1,
    client_email: clientEmail,
    config: {
      product: 'face_offline_perpetual',
      license_expire_delta: null,
      device_bound: deviceBound,
      max_version: '3.24',
      license_content: { matcher: 1, detector: 1 },
    },
    custom_tags: customTags,
  })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { licenses: { id: number }[] }).licenses[0]!.id
}

test('offline activation with a request file from the CLI; the downloaded file verifies; the device is released', async ({ page, playwright }) => {
  const client = await confirmedAccount(page.request)
  const staffRequest = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  const id = await staffLicense(staffRequest, client.email, {}, true)
  await staffRequest.dispose()

  const dir = mkdtempSync(join(tmpdir(), 'e2e-activation-'))
  const requestFile = join(dir, 'request.txt')
  writeFileSync(requestFile, deviceRequest({ serial: 'SN-4242', sensor: 'RealSense D435', reg: 'REG-77' }))

  await signIn(page, client.email)
  await page.goto(`/app/face/dashboard/${id}/info/`)
  await expect(page.getByRole('heading', { name: 'Offline camera' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'How to make a request file' })).toHaveAttribute('href', '/external_resource/link/face_sdk_docs_offline_license/')
  await expectAccessible(page, 'activation-request-file')
  await screenshots(page, 'activation-request-file')

  // no file yet: a sentence about the request file
  await page.getByRole('button', { name: 'Activate' }).click()
  await expect(page.getByText('Choose the activation request file made on the device first.')).toBeVisible()
  await page.getByLabel('Choose a request file').setInputFiles(requestFile)
  await page.getByRole('button', { name: 'Activate' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('The license will be bound')
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Activate and download' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('face_sdk_license.lic')
  const saved = join(dir, 'license.lic')
  await file.saveAs(saved)
  expect(readFileSync(saved, 'utf8')).toMatch(/^3DIVI-LICENSE v1 /)
  expect(cli('license:verify', saved)).toContain('"license_id": ' + id)

  // a changed byte fails verification
  const tampered = readFileSync(saved, 'utf8').replace('3DIVI-LICENSE v1 ', '3DIVI-LICENSE v1 z')
  writeFileSync(join(dir, 'tampered.lic'), tampered)
  expect(() => cli('license:verify', join(dir, 'tampered.lic'))).toThrow()

  // the devices panel lists the device; releasing it frees the seat
  const devices = page.getByRole('region', { name: 'Devices' }).or(page.locator('section[aria-labelledby="devices-title"]'))
  await expect(page.getByTestId('device-row')).toHaveCount(1)
  await expect(page.getByTestId('device-row')).toContainText('SN-4242')
  await expect(page.getByTestId('device-row')).toContainText('Request file')
  await expectAccessible(page, 'devices-panel')
  await screenshots(page, 'license-info-activated')
  await page.getByTestId('device-row').getByRole('button', { name: 'Release' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Release' }).click()
  await expect(devices.first().getByText('No devices yet.')).toBeVisible()
  // the seat is free again: the request file can be used anew
  await expect(page.getByText('Choose a request file')).toBeVisible()
})

test('USB-token activation: the serial, a warning, the file', async ({ page, playwright }) => {
  const client = await confirmedAccount(page.request)
  const staffRequest = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  const id = await staffLicense(staffRequest, client.email, { hardware_key_serial: true }, false)
  await staffRequest.dispose()
  await signIn(page, client.email)
  await page.goto(`/app/face/dashboard/${id}/info/`)
  await expect(page.getByRole('link', { name: 'Locking to a USB token' })).toBeVisible()
  await page.getByRole('button', { name: 'Activate' }).click()
  await expect(page.getByText('Enter the serial of the USB token')).toBeVisible()
  await page.getByLabel('USB token serial').fill('  TOKEN-0001  ')
  await page.getByRole('button', { name: 'Activate' }).click()
  await expectAccessible(page, 'usb-warning')
  const download = page.waitForEvent('download')
  await page.getByRole('dialog').getByRole('button', { name: 'Activate and download' }).click()
  expect((await download).suggestedFilename()).toBe('face_sdk_license.lic')
  await expect(page.getByTestId('device-row')).toContainText('TOKEN-0001')
  await expect(page.getByTestId('device-row')).toContainText('USB token')
  await screenshots(page, 'activation-usb')
  // once activated, the file downloads directly
  await expect(page.getByRole('button', { name: 'Download the license file' })).toBeVisible()
})
