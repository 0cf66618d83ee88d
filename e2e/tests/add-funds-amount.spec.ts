import type { Page } from '@playwright/test'
import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** The add-funds amount (spec section 5): whole dollars, said at the field; a linked amount below the minimum is shown as asked, in red. */

/** The colour Mantine gives errors, as the browser computes it. */
const errorColour = (page: Page) =>
  page.evaluate(() => {
    const probe = document.createElement('span')
    probe.style.color = 'var(--mantine-color-error)'
    document.body.append(probe)
    const colour = getComputedStyle(probe).color
    probe.remove()
    return colour
  })

test('typing 25.50 is refused with the whole-dollars message, never joined into 100255', async ({ page }) => {
  test.setTimeout(90_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/nuitrack/dashboard/')
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('button', { name: /Add funds/ })
    .click()
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  const field = dialog.getByRole('textbox', { name: 'Amount, USD' })
  await expect(field).toHaveValue('100')
  // as a customer types it: a click at the end of the prefilled field, then the keys; the point is kept and refused
  await field.click()
  await page.keyboard.type('25.50')
  await expect(field).toHaveValue(/25\.50$/)
  await expect(field).not.toHaveValue('100255')
  await expect(dialog.getByText('Whole dollars only: enter the amount without cents')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeDisabled()
  // typed into the emptied field: the same
  await field.fill('')
  await page.keyboard.type('25.50')
  await expect(field).toHaveValue('25.50')
  await expect(dialog.getByText('Whole dollars only: enter the amount without cents')).toBeVisible()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeDisabled()
  await expect(dialog.getByRole('button', { name: 'PayPal' })).toBeDisabled()
  await expectAccessible(page, 'add funds with cents')
  await screenshots(page, 'add-funds-cents', [1280, 800, 390])

  // the cents taken off: a whole amount pays
  await field.press('Backspace')
  await field.press('Backspace')
  await field.press('Backspace')
  await expect(field).toHaveValue('25')
  await expect(dialog.getByText('Whole dollars only: enter the amount without cents')).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeEnabled()
})

test('?amount=5 prefills 5 with the minimum in red and payment off', async ({ page }) => {
  test.setTimeout(90_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/nuitrack/add-funds/?amount=5')
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  const field = dialog.getByRole('textbox', { name: 'Amount, USD' })
  // the route's screen, the dashboard and the modal load first
  await expect(field).toHaveValue('5', { timeout: 30_000 })
  const minimum = dialog.getByText('Minimum amount: $20.00')
  await expect(minimum).toHaveAttribute('data-below', 'true')
  await expect(minimum).toHaveCSS('color', await errorColour(page))
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeDisabled()
  await screenshots(page, 'add-funds-below-minimum', [1280, 800, 390])
  // at the minimum it is no longer red and pays
  await field.fill('20')
  await expect(minimum).toHaveAttribute('data-below', 'false')
  await expect(minimum).not.toHaveCSS('color', await errorColour(page))
  await expect(dialog.getByRole('button', { name: 'Pay by card' })).toBeEnabled()
})
