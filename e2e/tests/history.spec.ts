import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiPost, confirmedAccount, expect, expectAccessible, screenshots, signIn, test, deviceRequest } from '../fixtures.ts'

test("sees the license's history after renaming and activating it", async ({ page }) => {
  // two screens, four screenshots and two axe runs on a shared machine
  test.setTimeout(180_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  const created = await apiPost(page.request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
  expect(created.status(), await created.text()).toBe(200)
  const id = ((await created.json()) as { licenses: { id: number }[] }).licenses[0]!.id

  const dir = mkdtempSync(join(tmpdir(), 'e2e-history-'))
  const requestFile = join(dir, 'request.txt')
  writeFileSync(requestFile, deviceRequest({ serial: 'SN-5150', sensor: 'Orbbec Astra', reg: 'REG-5150' }))

  await page.goto(`/app/nuitrack/dashboard/${id}/info/`)
  const history = page.getByRole('region', { name: 'History' })
  await expect(history.getByTestId('history-line')).toHaveCount(1)
  await expect(history.getByTestId('history-line').first()).toContainText('Free trial started (Nuitrack Trial)')

  // rename: the history shows the old and the new title at once
  await page.getByRole('button', { name: 'Edit title' }).click()
  const titleDialog = page.getByRole('dialog', { name: 'Edit the title' })
  await titleDialog.getByRole('textbox', { name: 'Title' }).fill('Lobby kiosk')
  await titleDialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('heading', { name: 'Lobby kiosk' })).toBeVisible()
  await expect(history.getByTestId('history-line').first()).toContainText(`Renamed from “Nuitrack Trial #${id}” to “Lobby kiosk”`)

  // activate offline with a request file made by the CLI
  await page.getByLabel('Choose a request file').setInputFiles(requestFile)
  await page.getByRole('button', { name: 'Activate' }).click()
  const dialog = page.getByRole('dialog')
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Activate and download' }).click()
  await download
  await expect(history.getByTestId('history-line')).toHaveCount(3)
  const lines = history.getByTestId('history-line')
  await expect(lines.nth(0)).toContainText('Activated on device SN-5150 (Orbbec Astra)')
  await expect(lines.nth(1)).toContainText('Renamed from')
  await expect(lines.nth(0)).toContainText(/[A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/)
  await expectAccessible(page, 'license history')
  // the shots start at the top: a scrolled page draws its fixed header in the middle of a full-page shot
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshots(page, 'history-license')

  // the account screen lists the same lines, each with its license; a personal account has no export
  await page.goto('/app/account/')
  const account = page.getByRole('region', { name: 'Activity history' })
  await expect(account.getByTestId('history-line')).toHaveCount(3)
  await expect(account.getByTestId('history-line').nth(0)).toContainText('Lobby kiosk')
  await expect(account.getByTestId('history-line').nth(0)).toContainText('Activated on device SN-5150 (Orbbec Astra)')
  await expect(account.getByRole('button', { name: 'Export CSV' })).toHaveCount(0)

  // a corporate account exports it as CSV
  expect((await apiPost(page.request, '/api/client/', { options: { corporate_member: true } })).status()).toBe(200)
  await page.reload()
  await expect(account.getByTestId('history-line')).toHaveCount(3)
  await expectAccessible(page, 'account history')
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshots(page, 'history-account')
  const csvDownload = page.waitForEvent('download')
  await account.getByRole('button', { name: 'Export CSV' }).click()
  const file = await csvDownload
  expect(file.suggestedFilename()).toBe('activity-history.csv')
  const saved = join(dir, 'history.csv')
  await file.saveAs(saved)
  const csv = readFileSync(saved, 'utf8').trimEnd().split('\r\n')
  expect(csv[0]).toBe('date,event,license_id,license,group_id,details,actor')
  expect(csv.slice(1).map((l) => l.split(',')[1])).toEqual(['activated', 'renamed', 'created'])
})
