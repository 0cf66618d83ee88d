import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { apiPost, confirmedAccount, expect, portal, signIn, test } from '../fixtures.ts'
import { pdfText } from '../pdf.ts'

/** An issued invoice is a record: a later change of the buyer's profile or company leaves every download of it as issued. */

/** Downloads the invoice of the payment document row that says `description`, as its text. */
async function invoiceText(page: Page, description: string) {
  await page.goto('/app/payment-doc/')
  const row = page.getByTestId('transaction-row').filter({ hasText: description })
  await expect(row).toHaveCount(1)
  const downloading = page.waitForEvent('download')
  await row.getByRole('button', { name: /^Download invoice/ }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/)
  return { name: download.suggestedFilename(), text: await pdfText(new Uint8Array(await readFile((await download.path())!))) }
}

test('an invoice downloaded, the company renamed, downloaded again: the same text', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await portal('balance:adjust', email, '10', '--reason', 'e2e invoice record')
  await signIn(page, email)
  const request = page.context().request
  // a corporate buyer with its company on the invoice
  const profile = await apiPost(request, '/api/client/', {
    name: 'Ada',
    last_name: 'Lovelace',
    options: { corporate_member: true },
    company: { name: 'Analytical Engines Ltd', address: '12 Marylebone Road, London', vat: 'GB123456789' },
  })
  expect(profile.status(), await profile.text()).toBe(200)
  const bought = await apiPost(request, '/api/resource/buy/', {
    payment_source: 'balance',
    success_url: '/app/nuitrack/license-purchase-success/',
    cancel_url: '/app/nuitrack/basket/',
    items: [{ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }],
  })
  expect(bought.status(), await bought.text()).toBe(200)

  const first = await invoiceText(page, 'Nuitrack Pro subscription')
  expect(first.text).toContain('Analytical Engines Ltd')
  expect(first.text).toContain('GB123456789')
  expect(first.text).toContain('Ada Lovelace')

  // the customer renames the company and themselves on the account screen
  await page.goto('/app/account/')
  await page.getByRole('textbox', { name: 'Company name' }).fill('Difference Engines plc')
  await page.getByRole('textbox', { name: 'Tax id' }).fill('GB987654321')
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Byron')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByText('Profile saved')).toBeVisible()

  const again = await invoiceText(page, 'Nuitrack Pro subscription')
  expect(again.name).toBe(first.name)
  expect(again.text).toBe(first.text)
  expect(again.text).not.toContain('Difference Engines plc')
})
