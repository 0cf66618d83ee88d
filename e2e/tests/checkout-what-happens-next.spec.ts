import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** The checkout says what a subscription does after the first payment, and what happened to a payment that did not go through. */

test('a subscription line says what it renews at until cancelled, and the last row what is charged now', async ({ page }) => {
  test.setTimeout(90_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/nuitrack/basket/license-selection/')
  await page.getByRole('link', { name: 'Buy Pro' }).click()
  await expect(page.getByRole('radio', { name: 'Nuitrack Pro subscription' })).toBeChecked()
  const summary = page.getByRole('complementary', { name: 'Order summary' })
  await expect(summary.getByTestId('renewal-note')).toHaveText('Then $3.28 a month until you cancel.')
  await expect(summary.getByText('Charged now')).toBeVisible()
  await expect(summary.getByTestId('order-total')).toHaveText('$3.28')
  await expectAccessible(page, 'checkout renewal note')
  await screenshots(page, 'checkout-what-happens-next', [1280, 800, 390])

  // the annual plan charges its year now and renews by the year
  await page.getByRole('radio', { name: 'Nuitrack Pro annual subscription' }).check()
  await expect(summary.getByTestId('renewal-note')).toHaveText('Then $39.90 a year until you cancel.')
  await expect(summary.getByTestId('order-total')).toHaveText('$39.90')

  // a perpetual license says nothing of renewals
  await page.goto('/app/nuitrack/basket/license-selection/')
  await page.getByRole('link', { name: 'Buy AI' }).click()
  await page.getByRole('radio', { name: 'Nuitrack AI perpetual' }).check()
  await expect(summary.getByTestId('order-total')).toHaveText('$299.90')
  await expect(summary.getByTestId('renewal-note')).toHaveCount(0)
})

test('a declined card payment for a purchase comes back to the checkout saying so, with the basket kept', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await signIn(page, email)
  await page.goto('/app/face/basket/checkout/')
  await page.getByRole('button', { name: /Add Face SDK subscription/ }).click()
  await page.getByRole('button', { name: 'One more' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$60.00')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: /By card/ })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $60.00' }).click()

  // the provider's hosted checkout refuses the card
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  await page.getByRole('button', { name: 'Decline' }).click()

  // back on the checkout: told what happened, the query gone from the address, the order as it was
  await expect(page).toHaveURL(/\/app\/face\/basket\/checkout\/$/)
  await expect(page.getByText('The payment was not completed')).toBeVisible()
  await expect(page.getByText(/nothing was charged\. Your basket is kept/)).toBeVisible()
  await expect(page.getByTestId('order-total')).toHaveText('$60.00')
  await expect(page.getByRole('textbox', { name: 'Quantity of Face SDK subscription' })).toHaveValue('2')
  await expectAccessible(page, 'checkout after a declined payment')
  await screenshots(page, 'checkout-declined', [1280, 800, 390])
  // said once: a reload does not say it again
  await page.reload()
  await expect(page.getByTestId('order-total')).toHaveText('$60.00')
  await expect(page.getByText('The payment was not completed')).toHaveCount(0)
  // nothing was bought
  await page.goto('/app/face/dashboard/')
  await expect(page.getByTestId('balance')).toHaveText('$0.00')
})
