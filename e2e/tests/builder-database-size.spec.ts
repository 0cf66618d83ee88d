import { confirmedAccount, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'

/** The custom Face SDK builder's face database size (spec section 9): asked first, it prices the matcher and the video client extension. */

const TIERS = [
  'No face database (1:1 verification)',
  'Up to 100 faces',
  'Up to 500 faces',
  'Up to 1,000 faces',
  'Up to 5,000 faces',
  'Up to 10,000 faces',
  'Up to 50,000 faces',
  'Up to 100,000 faces',
  'Up to 500,000 faces',
  'Up to 1,000,000 faces',
  'Up to 5,000,000 faces',
  'Up to 10,000,000 faces',
]

test('the database size is the first choice, prices the matcher and the extension, and names the purchase', async ({ page }) => {
  test.setTimeout(120_000)
  const { email } = await confirmedAccount(page.request)
  await portal('balance:adjust', email, '400', '--reason', 'e2e builder')
  await signIn(page, email)
  await page.goto('/app/face/basket/license-selection/')
  await page.getByRole('link', { name: 'Build your subscription' }).click()
  const drawer = page.getByRole('dialog', { name: 'Build your own Face SDK subscription' })
  const size = drawer.getByRole('combobox', { name: 'Face database size' })
  // the first choice of the panel, with every tier
  await expect(drawer.locator('select, input').first()).toHaveAccessibleName('Face database size')
  await expect(size.locator('option')).toHaveText(TIERS)
  await expect(size).toHaveValue('1000')
  // keyboard: the size is reached before the components
  await size.focus()
  await page.keyboard.press('Tab')
  await expect(drawer.getByRole('checkbox').first()).toBeFocused()

  const total = drawer.getByTestId('custom-total')
  // the extension alone: its $10 and the 1,000-face tier's $14
  await drawer.getByRole('checkbox', { name: 'Video client extension' }).check()
  await expect(total).toHaveText('$24.00')
  await size.selectOption('Up to 100,000 faces')
  await expect(total).toHaveText('$170.00')
  // with the matcher: each priced by the tier, $160 + ($10 + $160)
  await drawer.getByRole('checkbox', { name: 'Matcher (face search)' }).check()
  await expect(drawer.getByRole('checkbox', { name: 'Matcher (face search)' })).toHaveAccessibleDescription('$160.00 a month')
  await expect(drawer.getByRole('checkbox', { name: 'Video client extension' })).toHaveAccessibleDescription('$170.00 a month')
  await expect(total).toHaveText('$330.00')
  await expectAccessible(page, 'builder with a database size')
  await screenshots(page, 'builder-database-size', [1280, 800, 390])

  await drawer.getByRole('button', { name: 'Continue to checkout' }).click()
  await expect(page).toHaveURL(/\/app\/face\/basket\/checkout\/$/)
  const summary = page.getByRole('complementary', { name: 'Order summary' })
  await expect(summary).toContainText('Face SDK custom subscription, up to 100,000 faces × 1')
  await expect(summary.getByTestId('renewal-note')).toHaveText('Then $330.00 a month until you cancel.')
  await expect(summary.getByTestId('order-total')).toHaveText('$330.00')
  await expectAccessible(page, 'checkout of a custom subscription')
  await screenshots(page, 'checkout-custom-subscription', [1280, 800, 390])
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: 'From the balance' })).toBeChecked()
  await page.getByRole('button', { name: 'Pay $330.00' }).click()
  await page.getByRole('dialog', { name: 'Thank you for your purchase' }).getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
  // its group and its payment document carry the tier
  await expect(page.getByText('Face SDK custom subscription, up to 100,000 faces').first()).toBeVisible()
  await page.goto('/app/payment-doc/')
  await expect(page.getByTestId('transaction-row').first()).toContainText('Face SDK custom subscription, up to 100,000 faces')
})
