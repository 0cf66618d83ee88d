import { apiPost, confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/**
 * The trial upgrade checkout against the real server and the sandbox provider: the hold while the
 * checkout is open, a cancel that ends it, then a payment that upgrades the license in place.
 * Needs the server's POST /api/license/{id}/upgrade/.
 */
test('a Face Machine trial upgraded from its checkout: on hold while paying, cancel, pay, upgraded in place', async ({ page }) => {
  test.setTimeout(120_000)
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  const made = await apiPost(request, '/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })
  expect(made.ok(), await made.text()).toBe(true)
  const id = ((await made.json()) as { licenses: { id: number; token: string }[] }).licenses[0]!.id
  const checkout = `/app/face-machine/basket/checkout/upgrade/trial/${id}/`

  await page.goto(checkout)
  await expect(page.getByTestId('upgrade-from-to')).toHaveText('Face Machine trial → Face Machine')
  await expect(page.getByTestId('upgrade-price')).toHaveText('$49.00 per month')
  await expect(page.getByRole('link', { name: /Back to the license/ })).toHaveAttribute('href', `/app/face-machine/dashboard/${id}/info/`)
  await expect(page.getByRole('radio', { name: /From the balance/ })).toBeDisabled()
  await expectAccessible(page, 'upgrade-checkout')
  await screenshots(page, 'upgrade-checkout-trial')
  await page.getByRole('button', { name: 'Pay $49.00' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)

  // the checkout is open: the license is on hold, the upgrade page says so instead of a pay button
  await page.goto(checkout)
  await expect(page.getByTestId('upgrade-on-hold')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
  await expectAccessible(page, 'upgrade-on-hold')
  await screenshots(page, 'upgrade-checkout-on-hold')

  // cancelled at the provider: back to the checkout, and the hold ends with the cancel's webhook
  await page.goBack()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`${checkout}$`))
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('button', { name: 'Pay $49.00' })).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })

  // paid: the success modal goes on to the license's info page; the license is upgraded in place
  await page.getByRole('button', { name: 'Pay $49.00' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  await page.getByRole('button', { name: 'Pay $49.00' }).click()
  await expect(page).toHaveURL(/\/app\/face-machine\/license-purchase-success\/\?next=/)
  await page.getByRole('dialog', { name: 'Thank you for your purchase' }).getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(new RegExp(`/app/face-machine/dashboard/${id}/info/$`))
  await expect(async () => {
    const l = (await (await request.get(`/api/license/${id}/`)).json()) as { id: number; config: { upgraded?: boolean } }
    expect(l.config.upgraded).toBe(true)
  }).toPass({ timeout: 30_000 })
  await page.goto(checkout)
  await expect(page.getByText('This license cannot be upgraded this way.')).toBeVisible()
})
