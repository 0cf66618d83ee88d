import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { confirmedAccount, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'
import { pdfText } from '../pdf.ts'

/** Opens the fill-balance modal from the side menu's balance card and starts a payment of `amount` (by card unless told). */
async function startTopUp(page: Page, amount: string, opts: { shots?: boolean; pay?: 'Pay by card' | 'PayPal' } = {}) {
  // the side menu's balance card (a dashboard's first steps may offer Add funds too)
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('button', { name: /Add funds/ })
    .click()
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  const field = dialog.getByRole('textbox', { name: 'Amount, USD' })
  await expect(field).toHaveValue('100')
  // below the minimum both pay buttons are off
  await field.fill('19')
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeDisabled()
  await expect(dialog.getByRole('button', { name: 'PayPal' })).toBeDisabled()
  await field.fill(amount)
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeEnabled()
  if (opts.shots) {
    await expectAccessible(page, 'fill-balance')
    await screenshots(page, 'money-fill-balance')
  }
  await dialog.getByRole('button', { name: opts.pay ?? 'Pay by card' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
}

test('a card top-up of $150 through the sandbox checkout: the balance, the payment documents and the invoice PDF', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByTestId('balance')).toHaveText('$0.00')

  await startTopUp(page, '150', { shots: true })
  // the provider's hosted checkout: merchant, the top-up line and the total
  await expect(page.locator('#merchant')).not.toBeEmpty()
  await expect(page.getByRole('table')).toContainText('$150.00')
  await expect(page.getByText(`for ${email}`)).toBeVisible()
  await page.getByRole('button', { name: 'Pay $150.00' }).click()

  // back in the portal: the success modal waits for the webhook, then says the balance
  await expect(page).toHaveURL(/\/app\/nuitrack\/balance-purchase-success\/\?next=/)
  const success = page.getByRole('dialog', { name: 'Thank you for your payment' })
  await expect(success.getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
  await expect(success.getByTestId('top-up-status')).toHaveText('The payment is confirmed. Your balance is $150.00.', { timeout: 30_000 })
  await expectAccessible(page, 'balance-purchase-success')
  await screenshots(page, 'money-success')
  await success.getByRole('button', { name: 'OK' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByTestId('balance')).toHaveText('$150.00')

  // the payment documents: +$150.00, paid, with its invoice
  await page.goto('/app/payment-doc/')
  const row = page.getByTestId('transaction-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('+$150.00')
  await expect(row).toContainText('Paid')
  await expect(row).toContainText('Visa •••• 4242')
  await expectAccessible(page, 'payment-doc')
  await screenshots(page, 'money-payment-doc')
  // the status filter hides it under Declined and brings it back under Paid
  const status = page.getByRole('radiogroup', { name: 'Status' })
  await status.getByText('Declined', { exact: true }).click()
  await expect(page.getByText('No transactions match the filters')).toBeVisible()
  await status.getByText('Paid', { exact: true }).click()
  await expect(row).toHaveCount(1)

  const downloading = page.waitForEvent('download')
  await row.getByRole('button', { name: /^Download invoice/ }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/)
  const pdf = new Uint8Array(await readFile((await download.path())!))
  expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
  const text = await pdfText(pdf)
  expect(text).toContain('$150.00')
  expect(text).toContain(email)
})

test('a declined and a cancelled checkout leave the balance as it was and show as declined or expired', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/face/dashboard/')
  await expect(page.getByTestId('balance')).toHaveText('$0.00')

  // declined: the checkout sends the browser to the cancel address, the platform's dashboard
  await startTopUp(page, '40')
  await page.getByRole('button', { name: 'Decline' }).click()
  // the customer is told, and the address loses the checkout's query
  await expect(page.getByText('The top-up was not paid')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
  await expect(page.getByTestId('balance')).toHaveText('$0.00')

  // cancelled, at PayPal's checkout (the sandbox serves both sources)
  await startTopUp(page, '60', { pay: 'PayPal' })
  await expect(page.getByText('Payment by PayPal')).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('The top-up was not paid').first()).toBeVisible()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)

  // the webhooks arrive on their own schedule: the documents settle to declined and expired (or no row)
  await expect(async () => {
    await page.goto('/app/payment-doc/')
    const rows = page.getByTestId('transaction-row')
    await expect(rows.first()).toBeVisible({ timeout: 2_000 })
    // textContent, not innerText: the badges are upper-cased by CSS
    const texts = await rows.allTextContents()
    expect(texts.some((t) => t.includes('+$40.00') && t.includes('Declined'))).toBe(true)
    expect(texts.filter((t) => t.includes('+$60.00')).every((t) => /Expired|Declined/.test(t))).toBe(true)
    expect(texts.some((t) => t.includes('Pending'))).toBe(false)
  }).toPass({ timeout: 30_000 })
  // nothing was paid: no invoice to download, the balance is unchanged
  await expect(page.getByRole('button', { name: /^Download invoice/ })).toHaveCount(0)
  await page.reload()
  await expect(page.getByTestId('balance')).toHaveText('$0.00')
})

test('payment documents come 50 at a time: Show more reads the next page, and a status filter asks the server', async ({ page }) => {
  const { email } = await confirmedAccount(page.request)
  for (let i = 1; i <= 53; i++) await portal('balance:adjust', email, String(i), '--reason', `credit ${i}`)
  await signIn(page, email)
  await page.goto('/app/payment-doc/')
  const rows = page.getByTestId('transaction-row')
  await expect(rows).toHaveCount(50)
  // newest first: the last credit heads the list
  await expect(rows.first()).toContainText('+$53.00')
  await page.getByRole('button', { name: 'Show more (3 left)' }).click()
  await expect(rows).toHaveCount(53)
  await expect(rows.last()).toContainText('+$1.00')
  await expect(page.getByRole('button', { name: /Show more/ })).toHaveCount(0)
  // none of them is pending: the server's answer for that status is empty
  await page.getByRole('radiogroup', { name: 'Status' }).getByText('Pending').click()
  await expect(page.getByText('No transactions match the filters')).toBeVisible()
})
