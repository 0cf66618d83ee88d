import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** Pausing a license: the question first, by keyboard too, then the paused state everywhere, and resuming. */

// each test signs up, drives several screens and takes screenshots at two widths: room for a busy machine
test.describe.configure({ timeout: 120_000 })

test('pausing asks first (keyboard, focus trapped, consequences named); cancel does nothing; confirm shows Paused in badge and banner', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face-machine/dashboard/')
  await page.getByRole('button', { name: 'Start the 30-day Face Machine trial' }).click()
  await page.getByTestId('license-row').getByRole('link').click()
  await expect(page).toHaveURL(/\/app\/face-machine\/dashboard\/\d+\/info\/$/)
  const id = Number(/dashboard\/(\d+)\/info/.exec(page.url())![1])
  const badge = page.getByRole('heading', { level: 1 }).locator('xpath=..').getByTestId('status-badge')
  await expect(badge).toHaveText('New')
  const isPaused = async () => ((await (await page.request.get(`/api/license/${id}/`)).json()) as { config: { paused?: boolean } }).config.paused === true

  // one click only asks
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pause this trial?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('erased 30 days after pausing')
  await expect(dialog).toContainText('runs no transactions')
  // the safe answer has the focus; Tab stays inside the dialog
  await expect(dialog.getByRole('button', { name: 'Keep it running' })).toBeFocused()
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  }
  await expectAccessible(page, 'pause-dialog')
  await screenshots(page, 'pause-dialog')
  // Escape cancels; nothing changed
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  expect(await isPaused()).toBe(false)
  await expect(badge).toHaveText('New')
  // so does "Keep it running", by keyboard
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  await expect(dialog.getByRole('button', { name: 'Keep it running' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  expect(await isPaused()).toBe(false)

  // confirm pauses: badge, banner and subscription say so, and the trial countdown gives way
  await page.getByRole('button', { name: 'Pause the trial' }).click()
  await dialog.getByRole('button', { name: 'Pause the trial' }).click()
  await expect(dialog).toBeHidden()
  await expect(badge).toHaveText('Paused')
  const banner = page.getByTestId('paused-banner')
  await expect(banner).toContainText('This trial is paused')
  await expect(page.getByText(/days? left in the trial/)).toHaveCount(0)
  await expect(page.getByText('Subscription', { exact: true }).locator('xpath=..')).toContainText('Paused')
  expect(await isPaused()).toBe(true)
  await expectAccessible(page, 'paused-license')
  await screenshots(page, 'paused-license')

  // the dashboard files it under Paused
  await page.goto('/app/face-machine/dashboard/')
  await expect(page.getByTestId('license-row').getByTestId('status-badge')).toHaveText('Paused')
  await expect(page.getByRole('tab', { name: 'Paused (1)' })).toBeEnabled()
  await screenshots(page, 'dashboard-paused')

  // the banner's own action resumes
  await page.getByTestId('license-row').getByRole('link').click()
  await banner.getByRole('button', { name: 'Resume the trial' }).click()
  await expect(badge).toHaveText('New')
  await expect(banner).toHaveCount(0)
  await expect(page.getByText(/days? left in the trial/)).toBeVisible()
})
