import { apiPost, confirmedAccount, deviceRequest, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

test('a customer with an activated device sees the fleet charts at desktop and phone widths', async ({ page }) => {
  // two widths, one axe run and three screenshots on a shared machine
  test.setTimeout(180_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  const created = await apiPost(page.request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
  expect(created.status(), await created.text()).toBe(200)
  const id = ((await created.json()) as { licenses: { id: number }[] }).licenses[0]!.id
  const request = Buffer.from(deviceRequest({ serial: 'SN-2024', sensor: 'Orbbec Astra', reg: 'REG-2024' })).toString('base64')
  const activated = await apiPost(page.request, `/api/license/${id}/activate/offline/`, { data: request })
  expect(activated.status(), await activated.text()).toBe(200)

  // the dashboard's strip counts the device and leads to the full view
  await page.goto('/app/nuitrack/dashboard/')
  const strip = page.getByRole('region', { name: 'Nuitrack at a glance' })
  await expect(strip.getByTestId('fleet-strip-devices')).toContainText('1')
  await strip.getByRole('link', { name: 'See fleet and spend' }).click()
  await expect(page).toHaveURL(/\/app\/fleet\/$/)

  const activations = page.getByTestId('fleet-activations')
  await expect(activations.getByTestId('chart-summary')).toHaveText('Device activations in the last 90 days: 1')
  await expect(activations.locator('.recharts-bar-rectangle').filter({ visible: true }).first()).toBeVisible()
  await expect(page.getByTestId('fleet-status').locator('.recharts-bar-rectangle').filter({ visible: true }).first()).toBeVisible()
  // the table alternative, shown in the chart's place
  const status = page.getByTestId('fleet-status')
  const asTable = status.getByRole('switch', { name: 'Show as table' })
  await asTable.check({ force: true })
  await expect(status.getByRole('row', { name: /Active\s*1/ })).toBeVisible()
  await asTable.uncheck({ force: true })
  await expect(status.getByTestId('chart')).toBeVisible()
  await expectAccessible(page, 'fleet and spend')

  await page.setViewportSize({ width: 390, height: 844 })
  await expect(activations.locator('.recharts-bar-rectangle').filter({ visible: true }).first()).toBeVisible()
  const box = await activations.boundingBox()
  expect(box!.width).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshots(page, 'fleet')
})
