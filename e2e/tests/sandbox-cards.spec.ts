import type { Page } from '@playwright/test'
import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** The sandbox checkout's test-card field, with the keyboard only: a number that is no test card, a declined card, a paying card. */

async function toCheckout(page: Page, amount: string) {
  await page.goto('/app/nuitrack/dashboard/')
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('button', { name: /Add funds/ })
    .click()
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  await dialog.getByRole('textbox', { name: 'Amount, USD' }).fill(amount)
  await dialog.getByRole('button', { name: 'Pay by card' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  // the page's buttons are disabled until its script has loaded (a keypress before then pays nothing)
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled()
}

test('the sandbox card field: labelled, 4242 by default, errors next to it, 0002 declines, 5555 pays as Mastercard', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)

  await toCheckout(page, '40')
  const card = page.getByRole('textbox', { name: 'Card number' })
  await expect(card).toHaveValue('4242 4242 4242 4242')
  await expectAccessible(page, 'sandbox-checkout')
  await screenshots(page, 'sandbox-checkout-card')

  // keyboard only: Tab reaches the field first, Enter pays
  await page.keyboard.press('Tab')
  await expect(card).toBeFocused()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('4111 1111 1111 1111')
  await page.keyboard.press('Enter')
  await expect(page.locator('#card-error')).toHaveText(/sandbox test cards/)
  await expect(card).toHaveAttribute('aria-invalid', 'true')
  await expect(card).toBeFocused()
  await screenshots(page, 'sandbox-checkout-card-error')

  await card.fill('4000 0000 0000 0002')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/app\/nuitrack\/(dashboard\/)?$/)

  await toCheckout(page, '30')
  await page.getByRole('textbox', { name: 'Card number' }).fill('5555 5555 5555 4444')
  await page.getByRole('button', { name: 'Pay $30.00' }).press('Enter')
  await expect(page).toHaveURL(/\/app\/nuitrack\/balance-purchase-success\//)
  await expect(page.getByTestId('balance')).toHaveText('$30.00', { timeout: 30_000 })
})
