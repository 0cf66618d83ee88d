import { apiPost, confirmedAccount, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'

/** What the dashboards say: the empty states, the way to buy, and where the devices to release are. */

// each test signs up, drives several screens and takes screenshots at two widths: room for a busy machine
test.describe.configure({ timeout: 120_000 })

test('the dashboards say what the screen offers: empty states, the basket, the devices above their note', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)

  // Face SDK has no trial: the empty table points to the basket (support for a custom license), the first steps start at fill
  await page.goto('/app/face/dashboard/')
  const empty = page.getByRole('alert').filter({ hasText: 'You have no licenses yet' })
  await expect(empty).toContainText('Buy one in the basket; for a custom license, contact support')
  await expect(empty.getByRole('link', { name: 'basket' })).toHaveAttribute('href', '/app/face/basket/')
  await expect(empty.getByRole('link', { name: /contact support/ })).toBeVisible()
  await expect(page.getByRole('region', { name: 'First steps' }).getByRole('button', { name: 'Add funds' })).toBeVisible()
  await screenshots(page, 'face-empty')

  // Nuitrack: the first steps are above while shown; after Hide the text offers them back
  await page.goto('/app/nuitrack/dashboard/')
  await expect(empty).toContainText('Start a trial in the first steps above or buy one in the basket')
  await page.getByRole('button', { name: 'Hide' }).click()
  await expect(page.getByRole('heading', { name: 'First steps' })).toHaveCount(0)
  await expect(empty).not.toContainText('first steps above')
  await expectAccessible(page, 'nuitrack-empty-hidden')
  await screenshots(page, 'nuitrack-empty-hidden')
  await empty.getByRole('button', { name: 'Show the first steps' }).click()
  await expect(page.getByRole('heading', { name: 'First steps' })).toBeVisible()
  await expect(empty).toContainText('Start a trial in the first steps above or buy one in the basket')

  // buying through /resource/create/ points to the basket, where paid licenses are bought
  const res = await apiPost(page.request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_ai_perpetual' } })
  expect(res.status()).toBe(400)
  const body = (await res.json()) as { error: string }
  expect(body.error).toMatch(/basket/)

  // an activated license: the devices to release are above the text that mentions them
  await portal('licenses:bulk', client.email, '1')
  await page.goto('/app/nuitrack/dashboard/')
  await page.getByTestId('license-row').getByRole('link').first().click()
  const note = page.getByText('release a device in the Devices section above')
  await expect(note).toBeVisible()
  const devices = (await page.getByRole('heading', { name: 'Devices' }).boundingBox())!
  expect(devices.y).toBeLessThan((await note.boundingBox())!.y)
})
