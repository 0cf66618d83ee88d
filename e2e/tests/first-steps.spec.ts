import type { Page } from '@playwright/test'
import { screenshots, cli, confirmedAccount, expect, expectAccessible, signIn, test } from '../fixtures.ts'

const step = (page: Page) => page.getByRole('region', { name: 'First steps' }).getByTestId('first-step')

test('the first steps advance: nuitrack buy to success by the trial, face fill to buy as the balance reaches the plan price', async ({ page }) => {
  test.setTimeout(120_000)
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)

  // Nuitrack, step 1: the trial and the basket
  await page.goto('/app/nuitrack/dashboard/')
  const steps = page.getByRole('region', { name: 'First steps' })
  await expect(step(page)).toHaveAttribute('data-step', 'buy')
  await expect(steps.getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/nuitrack/basket/')
  await expectAccessible(page, 'first steps: nuitrack buy')
  await screenshots(page, 'first-steps-nuitrack-buy')
  await steps.getByRole('button', { name: 'Start the free Nuitrack trial' }).click()
  await expect(step(page)).toHaveAttribute('data-step', 'success')
  await expect(steps).toContainText("You're set")
  await expectAccessible(page, 'first steps: success')
  await screenshots(page, 'first-steps-nuitrack-success')
  // the block stays for the session until Done
  await page.reload()
  await expect(step(page)).toHaveAttribute('data-step', 'success')
  await steps.getByRole('button', { name: 'Done' }).click()
  await expect(steps).toHaveCount(0)
  await page.reload()
  await expect(page.getByTestId('license-row')).toHaveCount(1)
  await expect(steps).toHaveCount(0)

  // Face SDK: fill the balance to the cheapest plan ($30.00), then buy
  await page.goto('/app/face/dashboard/')
  await expect(step(page)).toHaveAttribute('data-step', 'fill')
  await expect(steps).toContainText('starts at $30.00 and your balance is $0.00: add $30.00 or more')
  await expectAccessible(page, 'first steps: face fill')
  await screenshots(page, 'first-steps-face-fill')
  await steps.getByRole('button', { name: 'Add funds' }).click()
  const fill = page.getByRole('dialog', { name: 'Add funds' })
  await expect(fill.getByRole('textbox', { name: /Amount, USD/ })).toHaveValue('30')
  await page.keyboard.press('Escape')
  await expect(fill).toHaveCount(0)
  // a top-up (here by staff) and the balance refetched: the fill step is done
  cli('balance:adjust', client.email, '30', '--reason', 'e2e first steps')
  await page.reload()
  await expect(step(page)).toHaveAttribute('data-step', 'buy')
  await expect(steps.getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/face/basket/')
})

test('face: Skip leaves the fill step for the session', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face/dashboard/')
  await page.getByRole('region', { name: 'First steps' }).getByRole('button', { name: 'Skip' }).click()
  await expect(step(page)).toHaveAttribute('data-step', 'buy')
  await page.reload()
  await expect(step(page)).toHaveAttribute('data-step', 'buy')
})
