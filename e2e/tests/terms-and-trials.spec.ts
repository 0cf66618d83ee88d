import type { APIRequestContext } from '@playwright/test'
import { apiPost, cli, confirmedAccount, expect, signIn, test } from '../fixtures.ts'

/** A license made from the client's paid default group of a product. */
async function paidLicense(request: APIRequestContext, product: string): Promise<{ id: number }> {
  const groups = (await (await request.get('/api/group/')).json()) as { groups: { id: number; product: string; limit: number; is_default: boolean }[] }
  const group = groups.groups.find((g) => g.product === product && g.limit > 0 && g.is_default)!
  const made = await apiPost(request, `/api/group/${group.id}/new-license/`, { title: `${product} paid` })
  expect(made.ok(), await made.text()).toBe(true)
  return (await made.json()) as { id: number }
}

const subscribe = async (request: APIRequestContext, platform: string, config: Record<string, unknown>) => {
  const bought = await apiPost(request, '/api/resource/subscribe/', {
    payment_source: 'balance',
    success_url: `/app/${platform}/license-purchase-success/`,
    cancel_url: `/app/${platform}/basket/`,
    items: [{ config, count: 1 }],
  })
  expect(bought.ok(), await bought.text()).toBe(true)
}

test('a 3-month Face SDK all-in-one states its term and its price per 3 months', async ({ page }) => {
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  cli('balance:adjust', email, '150', '--reason', 'e2e term')
  await subscribe(request, 'face', { product: 'face_online_all_in_one', license_expire_delta: 7_776_000 })
  const license = await paidLicense(request, 'face_online_all_in_one')
  await page.goto(`/app/face/dashboard/${license.id}/info/`)
  await expect(page.getByTestId('license-term')).toHaveText('3 months')
  await expect(page.getByTestId('renewal-price')).toHaveText('$150.00 every 3 months')
})

test('the Analytics subscription bought after its trial is a paid subscription, and the trial is not offered again', async ({ page }) => {
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)
  const trial = await apiPost(request, '/api/resource/create/', { count: 1, config: { product: 'na_subscribe', tag: 'NA Trial' } })
  expect(trial.ok(), await trial.text()).toBe(true)
  cli('balance:adjust', email, '20', '--reason', 'e2e analytics')
  await subscribe(request, 'nuitrack-analytics', { product: 'na_subscribe', license_expire_delta: 2_592_000 })
  const license = await paidLicense(request, 'na_subscribe')

  await page.goto(`/app/nuitrack-analytics/dashboard/${license.id}/info/`)
  const sub = page.getByRole('region', { name: 'Subscription' })
  await expect(sub.getByTestId('subscription-status')).toHaveText('Active')
  await expect(sub).toContainText('Next payment')
  await expect(page.getByRole('button', { name: 'Pause the subscription' })).toBeVisible()
  await expect(page.getByText('This trial has no end date.')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Upgrade now' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Pause the trial' })).toHaveCount(0)

  // the Nuitrack trial taken, its basket says so instead of offering it again
  expect((await apiPost(request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })).ok()).toBe(true)
  await page.goto('/app/nuitrack/basket/')
  await expect(page.getByTestId('trial-used')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start the free trial' })).toHaveCount(0)
})
