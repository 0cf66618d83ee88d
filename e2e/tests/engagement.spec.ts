import { apiPost, confirmedAccount, expect, expectAccessible, screenshots, signIn, test, portal } from '../fixtures.ts'

test.describe('the onboarding tour', () => {
  test.use({ tour: true })

  test('a new client sees the tour once, walks it with the keyboard, and reopens it from the menu', async ({ page }) => {
    const client = await confirmedAccount(page.request)
    await signIn(page, client.email)
    await page.goto('/app/nuitrack/dashboard/')
    const tour = page.getByTestId('onboarding-tour')
    await expect(tour.getByRole('heading', { name: 'Your products' })).toBeVisible()
    // the step points at the product menu: the ring sits around it
    await expectAccessible(page, 'onboarding tour')
    await screenshots(page, 'tour-step-1')
    await page.keyboard.press('Enter')
    await expect(tour.getByRole('heading', { name: 'Your balance' })).toBeVisible()
    await page.keyboard.press('ArrowRight')
    await expect(tour.getByRole('heading', { name: 'Buy, get help, read the docs' })).toBeVisible()
    await screenshots(page, 'tour-step-3')
    await page.keyboard.press('ArrowRight')
    await expect(tour.getByText('Step 4 of 4')).toBeVisible()
    await tour.getByRole('button', { name: 'Done' }).click()
    await expect(tour).toHaveCount(0)
    // once: not again on the next visit
    await page.reload()
    await expect(page.getByRole('region', { name: 'Help' })).toBeVisible()
    await expect(tour).toHaveCount(0)
    await page.getByRole('button', { name: 'Take the tour' }).click()
    await expect(tour.getByRole('heading', { name: 'Your products' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(tour).toHaveCount(0)
  })
})

test('feedback from the widget reaches the staff list', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/face/dashboard/')
  await page.getByRole('button', { name: 'Feedback' }).click()
  const dialog = page.getByRole('dialog', { name: 'How do you like the portal?' })
  await dialog.getByRole('button', { name: 'Send feedback' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Please choose how you feel about the portal')
  await dialog.getByRole('radio', { name: 'Happy' }).click()
  await dialog.getByLabel('Comment (optional)').fill('The trial took a minute to start')
  await expectAccessible(page, 'feedback widget')
  await screenshots(page, 'feedback-widget')
  await dialog.getByRole('button', { name: 'Send feedback' }).click()
  await expect(dialog).toContainText('Thank you!')
  await dialog.getByRole('button', { name: 'Done' }).click()
  const list = await portal('feedback:list')
  expect(list).toContain(`${client.email}\t5 happy\t/app/face/dashboard/\tThe trial took a minute to start`)
})

test(
  "support opens from a license's screen, in a new tab, at the helpdesk with the license id and no token in the address",
  { tag: '@full-browser' },
  async ({ page, context }) => {
    const client = await confirmedAccount(page.request)
    await signIn(page, client.email)
    const created = await apiPost(page.request, '/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
    const id = (await created.json()).licenses[0].id as number
    // the helpdesk is outside; the browser's request to it is answered here
    let helpdesk: URL | null = null
    await context.route('https://support.3divi.com/**', async (route) => {
      helpdesk = new URL(route.request().url())
      await route.fulfill({ contentType: 'text/html', body: '<title>Helpdesk</title><h1>Helpdesk</h1>' })
    })
    await page.goto(`/app/nuitrack/dashboard/${id}/info/`)
    const popup = page.waitForEvent('popup')
    await page.getByRole('link', { name: 'Get support for this license (opens in a new tab)' }).click()
    const tab = await popup
    await expect(tab.getByRole('heading', { name: 'Helpdesk' })).toBeVisible()
    expect(helpdesk).not.toBeNull()
    expect(helpdesk!.searchParams.get('license_id')).toBe(String(id))
    // the helpdesk signs the customer in through its own request to /api/service/freshdesk/authorize/
    // (helpdesk-sso.test.ts): a token in the address would end up in its logs and be ignored
    expect(helpdesk!.searchParams.get('sso')).toBeNull()
  },
)
