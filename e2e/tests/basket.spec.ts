import { screenshots, confirmedAccount, expect, expectAccessible, signIn, test, portal } from '../fixtures.ts'

/** Gives an account a balance through the portal's CLI. */
const fund = (email: string, usd: number) => portal('balance:adjust', email, String(usd), '--reason', 'e2e basket')

test('the license selection of every platform, the builder and the checkout steps', async ({ page }) => {
  test.setTimeout(120_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)

  await page.goto('/app/nuitrack/dashboard/')
  // the Buy tile (the first steps have their own basket link)
  await page.getByRole('region', { name: 'Help' }).getByRole('link', { name: 'Go to the basket' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/basket\/license-selection\/$/)
  const table = page.getByRole('table', { name: 'Nuitrack licenses compared' })
  await expect(table.getByRole('row', { name: /^iOS/ })).toHaveText(/iOS—No✓Yes—No/)
  await expectAccessible(page, 'nuitrack license selection')
  await screenshots(page, 'license-selection-nuitrack')

  await page.goto('/app/face/basket/')
  await expect(page.getByRole('region', { name: 'Face SDK all-in-one' })).toContainText('$600.00')
  await expectAccessible(page, 'face license selection')
  await screenshots(page, 'license-selection-face')

  await page.goto('/app/nuitrack-analytics/basket/')
  await expect(page.getByRole('region', { name: 'Cloud' })).toContainText('$20.00 a month')
  await expectAccessible(page, 'analytics license selection')
  await screenshots(page, 'license-selection-analytics')

  // the face all-in-one checkout: 12 months chosen, step 1 then step 2 (the balance is short)
  await page.goto('/app/face/basket/')
  await page.getByRole('link', { name: 'Choose a term' }).click()
  await expect(page.getByRole('radio', { name: 'Face SDK all-in-one, 12 months' })).toBeChecked()
  await page.getByRole('radio', { name: 'Face SDK all-in-one, 6 months' }).check()
  await expect(page.getByTestId('order-total')).toHaveText('$300.00')
  await expectAccessible(page, 'checkout step 1')
  await screenshots(page, 'checkout-step-1')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: 'From the balance' })).toBeDisabled()
  await expect(page.getByText('Your balance is short of $300.00 for this order.')).toBeVisible()
  await expectAccessible(page, 'checkout step 2')
  await screenshots(page, 'checkout-step-2')

  // the stepper checkout with two lines
  await page.goto('/app/face/basket/checkout/')
  await page.getByRole('button', { name: /Add Face SDK subscription/ }).click()
  await page.getByRole('button', { name: 'One more' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$60.00')
  await page.getByRole('button', { name: /Add Face SDK all-in-one, 3 months/ }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$210.00')
  await page.reload()
  await expect(page.getByTestId('order-total')).toHaveText('$210.00')
  await expectAccessible(page, 'stepper checkout')
  await screenshots(page, 'checkout-stepper')

  // the builder: Escape closes it
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Build your subscription' }).click()
  const drawer = page.getByRole('dialog', { name: 'Build your own Face SDK subscription' })
  await drawer.getByRole('checkbox', { name: 'Face detector' }).check()
  await drawer.getByRole('checkbox', { name: 'Matcher (face search)' }).check()
  await expect(drawer.getByTestId('custom-total')).toHaveText('$19.00')
  await expectAccessible(page, 'builder')
  await screenshots(page, 'builder')
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(/\/app\/face\/basket\/license-selection\/$/)
  await expect(drawer).toBeHidden()
})

test('buy Nuitrack Pro from the balance and find its group on the dashboard', async ({ page }) => {
  test.setTimeout(90_000)
  const client = await confirmedAccount(page.request)
  await fund(client.email, 50)
  await signIn(page, client.email)
  await page.goto('/app/nuitrack/basket/license-selection/')
  await page.getByRole('link', { name: 'Buy Pro' }).click()
  await expect(page.getByRole('radio', { name: 'Nuitrack Pro subscription' })).toBeChecked()
  await expect(page.getByTestId('order-total')).toHaveText('$3.28')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: 'From the balance' })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $3.28' }).click()
  const modal = page.getByRole('dialog', { name: 'Thank you for your purchase' })
  await expect(modal).toBeVisible()
  await expect(page).toHaveURL(/\/app\/nuitrack\/license-purchase-success\/$/)
  await expectAccessible(page, 'success modal')
  await screenshots(page, 'license-purchase-success')
  await modal.getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByText(/Nuitrack Pro subscription/).first()).toBeVisible()
  // the balance paid for it
  await expect(page.getByText('$46.72').first()).toBeVisible()
})

test('build a custom Face SDK subscription and buy it from the balance', async ({ page }) => {
  test.setTimeout(90_000)
  const client = await confirmedAccount(page.request)
  await fund(client.email, 100)
  await signIn(page, client.email)
  await page.goto('/app/face/basket/license-selection/create/')
  const drawer = page.getByRole('dialog', { name: 'Build your own Face SDK subscription' })
  await drawer.getByRole('checkbox', { name: 'Face detector' }).check()
  await drawer.getByRole('checkbox', { name: 'Matcher (face search)' }).check()
  await drawer.getByRole('combobox', { name: 'Face database size' }).selectOption('Up to 5,000 faces')
  // detector $5 + matcher at the 5,000 tier $34
  await expect(drawer.getByTestId('custom-total')).toHaveText('$39.00')
  // the draft survives a reload
  await page.reload()
  await expect(page.getByRole('dialog', { name: 'Build your own Face SDK subscription' }).getByTestId('custom-total')).toHaveText('$39.00')
  await page.getByRole('button', { name: 'Continue to checkout' }).click()
  await expect(page).toHaveURL(/\/app\/face\/basket\/checkout\/$/)
  await expect(page.getByTestId('order-total')).toHaveText('$39.00')
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('button', { name: 'Pay $39.00' }).click()
  await page.getByRole('dialog', { name: 'Thank you for your purchase' }).getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
  await expect(page.getByText(/Face SDK custom subscription/).first()).toBeVisible()
  // the purchase cleared the draft
  expect(await page.evaluate(() => localStorage.getItem('portal.face-custom-draft'))).toBeNull()
})

test('buy Face SDK all-in-one for 6 months by card through the sandbox checkout', async ({ page }) => {
  test.setTimeout(90_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Choose a term' }).click()
  await page.getByRole('radio', { name: 'Face SDK all-in-one, 6 months' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: /By card/ })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $300.00' }).click()
  // the provider's hosted checkout (the built-in sandbox), then back to the portal
  await page.getByRole('button', { name: 'Pay $300.00' }).click()
  const modal = page.getByRole('dialog', { name: 'Thank you for your purchase' })
  await expect(modal).toBeVisible()
  await expect(page).toHaveURL(/\/app\/face\/license-purchase-success\/$/)
  await modal.getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
  // the provider's webhook fulfils the order in the background: the licenses arrive soon
  await expect(async () => {
    await page.reload()
    await expect(page.getByText(/Face SDK all-in-one/).first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 40_000 })
})

test('a promo code in the checkout: refusals under the input, then applied and cleared', async ({ page }) => {
  test.setTimeout(90_000)
  const suffix = Date.now().toString(36).toUpperCase()
  await portal('promo:create', `FACE10-${suffix}`, '--discount', '10%', '--platform', 'face')
  await portal('promo:create', `NUI5-${suffix}`, '--discount', '5', '--platform', 'nuitrack')
  await portal('promo:create', `OLD-${suffix}`, '--discount', '5', '--expires', '2020-01-01')
  await portal('promo:create', `ONE-${suffix}`, '--discount', '10%', '--platform', 'face', '--max-activations', '1')
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Choose a term' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$600.00')
  const input = page.getByRole('textbox', { name: 'Promo code' })
  const apply = page.getByRole('button', { name: 'Apply' })
  await expect(apply).toBeDisabled()
  for (const [code, message] of [
    [`NOPE-${suffix}`, "This promo code doesn't exist (Face SDK)"],
    [`NUI5-${suffix}`, "This promo code can't be applied to this platform (Face SDK)"],
    [`OLD-${suffix}`, 'This promo code has expired (Face SDK)'],
  ]) {
    await input.fill(code!)
    await apply.click()
    await expect(input).toHaveAccessibleDescription(message!)
  }
  await input.fill(`face10-${suffix.toLowerCase()}`)
  await apply.click()
  await expect(page.getByTestId('order-total')).toHaveText('$540.00')
  await expect(page.getByRole('textbox', { name: 'Promo code' })).toHaveAttribute('readonly', '')
  await expectAccessible(page, 'promo applied')
  await screenshots(page, 'checkout-promo-applied')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: 'From the balance' })).toBeDisabled()
  await page.getByRole('button', { name: 'Back to the order' }).click()
  await page.getByRole('button', { name: 'Remove the code' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$600.00')

  // a code of one activation, applied and paid by card: the provider charges the discounted total
  await page.getByRole('textbox', { name: 'Promo code' }).fill(`ONE-${suffix}`)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('order-total')).toHaveText('$540.00')
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('button', { name: 'Pay $540.00' }).click()
  await page.getByRole('button', { name: 'Pay $540.00' }).click()
  await expect(page.getByRole('dialog', { name: 'Thank you for your purchase' })).toBeVisible()

  // its one activation is spent: the next order is told so under the input
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Choose a term' }).click()
  await page.getByRole('textbox', { name: 'Promo code' }).fill(`ONE-${suffix}`)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByRole('textbox', { name: 'Promo code' })).toHaveAccessibleDescription(
    'This promo code has reached its maximum activation count (Face SDK)',
  )
})
