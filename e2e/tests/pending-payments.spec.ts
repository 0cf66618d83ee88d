import { cli, confirmedAccount, expect, signIn, test } from '../fixtures.ts'

test('a card payment held for review shows as pending; sandbox:settle completes it and the licenses arrive', async ({ page }) => {
  test.setTimeout(120_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Choose a term' }).click()
  await page.getByRole('radio', { name: 'Face SDK all-in-one, 6 months' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: /By card/ })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $300.00' }).click()

  // the provider's hosted checkout (the built-in sandbox): the payment is held for review
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  const session = /\/sandbox\/checkout\/([^/]+)\/$/.exec(page.url())![1]!
  await page.getByRole('button', { name: 'Pay (held for review)' }).click()
  await expect(page).toHaveURL(/\/app\/face\/license-purchase-success\/$/)

  // pending in the payment documents, and no licenses yet
  await page.goto('/app/payment-doc/')
  const row = page.getByTestId('transaction-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('-$300.00')
  await expect(row).toContainText('Pending')
  await page.goto('/app/face/dashboard/')
  await expect(page.getByText(/Face SDK all-in-one/)).toHaveCount(0)

  // the provider settles it later: its webhook completes the purchase
  expect(cli('sandbox:settle', decodeURIComponent(session), '--outcome', 'paid')).toContain('Settled')
  await expect(async () => {
    await page.reload()
    await expect(page.getByText(/Face SDK all-in-one/).first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 40_000 })
  await page.goto('/app/payment-doc/')
  await expect(row).toContainText('Paid')
})
