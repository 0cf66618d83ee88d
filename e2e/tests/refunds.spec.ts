import type { Page } from '@playwright/test'
import { cli, confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

const WIDTHS = [1280, 800, 390] as const

/**
 * Two Face SDK subscriptions bought through the basket by card (the sandbox's hosted checkout);
 * answers the order's transaction id once the provider's webhook has delivered its two licenses to
 * generate.
 */
async function buyTwoByCard(page: Page): Promise<number> {
  await page.goto('/app/face/basket/checkout/')
  await page.getByRole('button', { name: /Add Face SDK subscription/ }).click()
  await page.getByRole('button', { name: 'One more' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$60.00')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: /By card/ })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $60.00' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  await page.getByRole('button', { name: 'Pay $60.00' }).click()
  const modal = page.getByRole('dialog', { name: 'Thank you for your purchase' })
  await modal.getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
  // the webhook fulfils the order in the background; each reload gets the time a dashboard takes to load
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Licenses', exact: true })).toBeVisible()
    await expect(page.getByText('2 of 2 licenses not generated yet')).toBeVisible({ timeout: 3_000 })
  }).toPass({ timeout: 120_000 })
  const docs = (await (await page.request.get('/api/transaction/')).json()) as { transactions: { id: number; status: string }[] }
  const paid = docs.transactions.filter((t) => t.status === 'ok')
  expect(paid).toHaveLength(1)
  return paid[0]!.id
}

/** Generates one key from the dashboard's group; answers its license id, on its info page. */
async function generateKey(page: Page, title: string): Promise<number> {
  await page.getByRole('link', { name: 'Generate a key' }).click()
  await expect(page).toHaveURL(/\/pre-info\/$/)
  await page.getByLabel('Title of the new license (optional)').fill(title)
  await page.getByRole('button', { name: 'Generate the key' }).click()
  await expect(page.getByRole('heading', { name: title })).toBeVisible()
  return Number(/\/dashboard\/(\d+)\/info\/$/.exec(page.url())![1])
}

test('a basket order refunded by staff: its license suspended with the reason, its credit note with a PDF', async ({ page }) => {
  test.setTimeout(240_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  const transactionId = await buyTwoByCard(page)
  const licenseId = await generateKey(page, 'Reception camera')

  const out = cli('payments:refund', String(transactionId), '--reason', 'Ordered by mistake')
  const creditNote = /credit note (CN-\d{6})/.exec(out)?.[1]
  expect(creditNote, out).toBeDefined()
  expect(out).toContain('1 license(s) suspended, 1 ungenerated license(s) taken out')

  // the license says why it is suspended, and its history has the line
  await page.goto(`/app/face/dashboard/${licenseId}/info/`)
  const banner = page.getByTestId('suspended-banner')
  await expect(banner).toContainText(`payment refunded (${creditNote}): Ordered by mistake`)
  const history = page.getByRole('region', { name: 'History' })
  await expect(history.getByTestId('history-line').first()).toContainText(`Suspended: payment refunded (${creditNote})`)
  // it is not handed back to its group: no revoke
  await expect(page.getByRole('button', { name: 'Revoke the license' })).toHaveCount(0)
  await expectAccessible(page, 'suspended license')
  await screenshots(page, 'refund-suspended-license', WIDTHS)

  // the key not generated yet left with the refund
  await page.goto('/app/face/dashboard/')
  await expect(page.getByRole('link', { name: 'Reception camera' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Generate a key' })).toHaveCount(0)

  // the payment documents: the credit note correcting the invoice, and its PDF
  await page.goto('/app/payment-doc/')
  const notes = page.getByTestId('credit-notes')
  await expect(notes).toContainText(creditNote!)
  await expect(notes).toContainText('Refund')
  await expect(notes).toContainText('-$60.00')
  await expect(notes).toContainText('Ordered by mistake')
  await expectAccessible(page, 'payment documents with a credit note')
  await screenshots(page, 'refund-payment-documents', WIDTHS)
  const download = page.waitForEvent('download')
  await notes.getByRole('button', { name: 'PDF' }).click()
  expect((await download).suggestedFilename()).toBe(`${creditNote}.pdf`)
})

test('a basket order disputed: lost suspends its license and takes its ungenerated key; won restores both', async ({ page }) => {
  test.setTimeout(240_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  const transactionId = await buyTwoByCard(page)
  const licenseId = await generateKey(page, 'Lobby kiosk')

  expect(cli('sandbox:dispute', String(transactionId))).toContain('1 license(s) suspended, 1 ungenerated license(s) taken out')
  await page.goto(`/app/face/dashboard/${licenseId}/info/`)
  await expect(page.getByTestId('suspended-banner')).toContainText('payment disputed (CN-')
  await page.goto('/app/face/dashboard/')
  await expect(page.getByRole('link', { name: 'Lobby kiosk' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Generate a key' })).toHaveCount(0)
  await page.goto('/app/payment-doc/')
  await expect(page.getByTestId('credit-notes')).toContainText('Dispute')

  expect(cli('sandbox:dispute', String(transactionId), '--outcome', 'won')).toContain('was won')
  await page.goto(`/app/face/dashboard/${licenseId}/info/`)
  await expect(page.getByRole('heading', { name: 'Lobby kiosk' })).toBeVisible()
  await expect(page.getByTestId('suspended-banner')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'History' }).getByTestId('history-line').first()).toContainText('Restored: dispute closed in our favour')
  await page.goto('/app/face/dashboard/')
  await expect(page.getByRole('link', { name: 'Generate a key' })).toBeVisible()
  await page.goto('/app/payment-doc/')
  await expect(page.getByTestId('credit-notes')).toContainText('Dispute won')
})
