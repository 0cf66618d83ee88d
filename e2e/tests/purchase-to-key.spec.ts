import type { Page } from '@playwright/test'
import { confirmedAccount, expect, expectAccessible, portal, screenshotAtWidth, screenshots, settled, signIn, test } from '../fixtures.ts'

/** From a purchase to working keys: generate them all at once, the dashboard's list, a group key to copy. */

/** The shared 1280 and 800 px screenshots, and the phone's 390 px beside them. */
async function allWidths(page: Page, name: string) {
  await screenshots(page, name)
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  await page.setViewportSize({ width: 390, height: 844 })
  await settled(page)
  await expectAccessible(page, `${name} at 390 px`)
  await screenshotAtWidth(page, name)
  await page.setViewportSize(size)
  await settled(page)
}

test('buy three licenses, generate all their keys at once, then the dashboard list and a group key', async ({ page, context }) => {
  test.setTimeout(420_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const client = await confirmedAccount(page.request)
  await portal('balance:adjust', client.email, '200', '--reason', 'e2e purchase to key')
  await signIn(page, client.email)
  await page.setViewportSize({ width: 1280, height: 800 })

  // three of one Nuitrack product, paid from the balance
  await page.goto('/app/nuitrack/basket/checkout/')
  await page
    .getByRole('button', { name: /^Add Nuitrack/ })
    .first()
    .click()
  await page.getByRole('button', { name: 'One more' }).click()
  await page.getByRole('button', { name: 'One more' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: 'From the balance' })).toBeChecked()
  await page.getByRole('button', { name: /^Pay \$/ }).click()

  const modal = page.getByRole('dialog', { name: 'Thank you for your purchase' })
  await expect(page).toHaveURL(/\/app\/nuitrack\/license-purchase-success\/$/)
  const generateAll = modal.getByRole('button', { name: 'Generate all 3 keys now' })
  await expect(generateAll).toBeVisible()
  await expectAccessible(page, 'success with generate all')
  await allWidths(page, 'purchase-success-offer')
  await generateAll.click()
  const keys = modal.getByTestId('new-key')
  await expect(keys).toHaveCount(3)
  const firstKey = (await keys.first().locator('.mantine-Text-root').nth(1).textContent())!.trim()
  expect(firstKey).toMatch(/\S{8,}/)
  await keys
    .first()
    .getByRole('button', { name: /^Copy the key of/ })
    .click()
  await expect(keys.first().getByRole('button', { name: /^Copy the key of/ })).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey)
  // axe judges the screen at rest, not the button under the pointer
  await page.mouse.move(0, 0)
  await expectAccessible(page, 'success with the new keys')
  await allWidths(page, 'purchase-success-keys')
  await modal.getByRole('button', { name: 'Go to my licenses' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByRole('cell', { name: firstKey })).toBeVisible()

  // a larger order waits as one compact list; the table stays in view
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '12', '--os-type', '1')
  await page.reload()
  const list = page.getByRole('region', { name: 'Licenses to generate' })
  const row = list.getByTestId('to-generate').filter({ hasText: 'Nuitrack subscription group' })
  await expect(row).toContainText('12 of 12 licenses not generated yet')
  // 3 wait unactivated: 7 more can be made now
  await expect(row).toContainText('7 can be generated now: at most 10 licenses can wait unactivated.')
  const table = page.getByTestId('license-table-scroll')
  const box = (await table.boundingBox())!
  expect(box.y).toBeLessThan(800)
  await expectAccessible(page, 'dashboard with licenses to generate')
  await allWidths(page, 'dashboard-to-generate')
  await row.getByRole('button', { name: /^Generate all 7 keys of/ }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Keys generated: 7' })).toBeVisible()
  await expect(row).toContainText('5 of 12 licenses not generated yet')
  await expect(row).toContainText('At most 10 licenses can wait unactivated: activate some first.')

  // a group key from the rest, and its key copied
  await page.goto('/app/group-keys/')
  await expect(page.getByTestId('group-key-sources')).toContainText('Nuitrack subscription (group keys)')
  await page.getByRole('button', { name: 'Create a group key' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create a group key' })
  await dialog.getByLabel('Name', { exact: true }).fill('Stores')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/app\/group-keys\/\d+\/group-key-info\/$/)
  const groupKey = (await page.getByTestId('group-key').textContent())!.trim()
  await page.getByRole('button', { name: 'Copy the group key' }).click()
  await expect(page.getByRole('button', { name: 'Copy the group key' })).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(groupKey)
  await page.mouse.move(0, 0)
  await expect(page.getByTestId('group-key-use')).toContainText('every new device gets a license of its own from this key')
  await expectAccessible(page, 'group key info')
  await allWidths(page, 'group-key-info-copy')
  await page.goto('/app/group-keys/')
  await expect(page.getByTestId('group-key-row')).toHaveCount(1)
  await allWidths(page, 'group-keys-sources')
})
