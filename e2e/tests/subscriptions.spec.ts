import type { APIRequestContext, Page } from '@playwright/test'
import { apiPost, confirmedAccount, expect, expectAccessible, screenshots, signIn, test, portal } from '../fixtures.ts'

/** A generated license of a product bought (or granted) into the client's default group. */
async function licenseFromGroup(request: APIRequestContext, product: string): Promise<{ id: number; token: string }> {
  const groups = (await (await request.get('/api/group/')).json()) as { groups: { id: number; product: string; limit: number }[] }
  const group = groups.groups.find((g) => g.product === product && g.limit > 0)!
  const made = await apiPost(request, `/api/group/${group.id}/new-license/`, { title: `${product} e2e` })
  expect(made.ok(), await made.text()).toBe(true)
  return (await made.json()) as { id: number; token: string }
}

const block = (page: Page) => page.getByRole('region', { name: 'Subscription' })

test('a Nuitrack subscription: cancel keeps it active until its end, reactivate undoes it', async ({ page }) => {
  test.setTimeout(120_000)
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  await portal('balance:adjust', email, '20', '--reason', 'e2e subscriptions')
  const bought = await apiPost(request, '/api/resource/subscribe/', {
    payment_source: 'balance',
    success_url: '/app/nuitrack/license-purchase-success/',
    cancel_url: '/app/nuitrack/basket/',
    items: [{ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2592000, os_type: 1 }, count: 1 }],
  })
  expect(bought.ok(), await bought.text()).toBe(true)
  const license = await licenseFromGroup(request, 'nuitrack_online_subscription_monthly')

  await page.goto(`/app/nuitrack/dashboard/${license.id}/info/`)
  const sub = block(page)
  await expect(sub.getByTestId('subscription-status')).toHaveText('Active')
  await expect(sub.getByTestId('payment-method')).toHaveText('Balance')
  await expect(sub).toContainText('Next payment')
  await expectAccessible(page, 'subscription active')
  await screenshots(page, 'info-subscription-active')

  await sub.getByRole('button', { name: 'Cancel the subscription' }).click()
  const confirm = page.getByRole('dialog', { name: 'Cancel the subscription?' })
  await expect(confirm).toContainText('It stays active until')
  await confirm.getByRole('button', { name: 'Cancel the subscription' }).click()
  await expect(sub.getByText(/^Cancelled — active until /)).toBeVisible()
  await expect(sub).not.toContainText('Next payment')
  // still a working license until the end of the paid period: not suspended
  await expect(page.getByTestId('status-badge')).not.toHaveText('Suspended')
  const cancelled = (await (await request.get(`/api/license/${license.id}/`)).json()) as {
    license_status: string
    subscription: { cancel_at_period_end: boolean }
  }
  expect(cancelled.license_status).not.toBe('suspended')
  expect(cancelled.subscription.cancel_at_period_end).toBe(true)
  await expectAccessible(page, 'subscription cancelled')
  await screenshots(page, 'info-subscription-cancel-pending')

  await sub.getByRole('button', { name: 'Reactivate' }).click()
  await expect(sub.getByTestId('subscription-status')).toHaveText('Active')
  await expect(sub).toContainText('Next payment')
  const reactivated = (await (await request.get(`/api/license/${license.id}/`)).json()) as { subscription: { cancel_at_period_end: boolean } }
  expect(reactivated.subscription.cancel_at_period_end).toBe(false)
})

test('Nuitrack Pro upgraded to AI from its info screen, paid from the balance, keeping its key', async ({ page }) => {
  test.setTimeout(120_000)
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  await portal('licenses:grant', email, 'nuitrack_online', '1')
  await portal('balance:adjust', email, '100', '--reason', 'e2e upgrade')
  const license = await licenseFromGroup(request, 'nuitrack_online')

  await page.goto(`/app/nuitrack/dashboard/${license.id}/info/`)
  await expect(page.getByTestId('upgrade-cost').first()).toContainText('$99.90')
  await screenshots(page, 'info-pro-upgradeable')
  await page.getByRole('link', { name: 'Upgrade to AI' }).click()
  await expect(page).toHaveURL(new RegExp(`/app/nuitrack/basket/checkout/upgrade/pro/${license.id}/$`))
  await expect(page.getByRole('link', { name: /Back to the license/ })).toHaveAttribute('href', `/app/nuitrack/dashboard/${license.id}/info/`)
  await expect(page.getByRole('spinbutton')).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: /promo/i })).toHaveCount(0)
  await page.getByRole('radio', { name: /From the balance/ }).check()
  await page.getByRole('button', { name: /^Pay \$99\.90/ }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/license-purchase-success\//)
  await page.getByRole('dialog').getByRole('button').first().click()
  await expect(page).toHaveURL(new RegExp(`/app/nuitrack/dashboard/${license.id}/info/$`))
  const upgraded = (await (await request.get(`/api/license/${license.id}/`)).json()) as { token: string; config: { product: string } }
  expect(upgraded.config.product).toBe('nuitrack_ai_perpetual')
  expect(upgraded.token).toBe(license.token)
  await expect(page.getByText('Nuitrack AI perpetual').first()).toBeVisible()
})

test('a license on hold under an upgrade: every action disabled on its info screen', async ({ page }) => {
  test.setTimeout(120_000)
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  const made = await apiPost(request, '/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })
  const id = ((await made.json()) as { licenses: { id: number }[] }).licenses[0]!.id
  // an upgrade whose card payment is still open holds the license
  const upgrade = await apiPost(request, `/api/license/${id}/upgrade/`, {
    payment_source: 'stripe',
    success_url: `/app/face-machine/license-purchase-success/?next=${encodeURIComponent(`/app/face-machine/dashboard/${id}/info/`)}`,
    cancel_url: `/app/face-machine/dashboard/${id}/info/`,
  })
  expect(upgrade.ok(), await upgrade.text()).toBe(true)
  const again = await apiPost(request, `/api/license/${id}/upgrade/`, { payment_source: 'stripe', success_url: '/app/', cancel_url: '/app/' })
  expect(again.status()).toBe(409)

  await page.goto(`/app/face-machine/dashboard/${id}/info/`)
  await expect(page.getByRole('alert', { name: 'On hold' })).toBeVisible()
  await expect(page.getByTestId('status-badge')).toHaveText('On hold')
  // the trial's actions: rename, upgrade, pause, each there and each disabled
  await expect(page.getByRole('button', { name: 'Edit title' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Upgrade now' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Pause the trial' })).toBeDisabled()
  await expectAccessible(page, 'license on hold')
  await screenshots(page, 'info-on-hold')
})
