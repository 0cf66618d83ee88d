import { apiPost, confirmedAccount, expect, expectAccessible, lastMail, portal, screenshots, signIn, test } from '../fixtures.ts'

/** The keyboard and the focus ring, and a message for every action that succeeds: a new key, a revocation, a reset, a trial. */

test('the last key of a one-license group lands on the new license and stays there', async ({ page }) => {
  const customer = await confirmedAccount(page.request)
  await portal('licenses:grant', customer.email, 'nuitrack_subscribe', '1', '--os-type', '1')
  await signIn(page, customer.email)
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByText('1 of 1 licenses not generated yet')).toBeVisible()
  await page.getByRole('link', { name: 'Generate a key' }).click()
  await expect(page).toHaveURL(/\/pre-info\/$/)
  await page.getByLabel('Title of the new license (optional)').fill('Only kiosk')
  // the group's list refreshes behind the page after the key is made
  const groupsRefreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/group/' && r.request().method() === 'GET')
  await page.getByRole('button', { name: 'Generate the key' }).click()

  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/\d+\/info\/$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Only kiosk' })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: 'Activation key generated' })).toBeVisible()
  const id = /\/dashboard\/(\d+)\/info\//.exec(page.url())![1]
  await expect(page).toHaveTitle(`License #${id} · Nuitrack · 3DiVi Portal`)
  await screenshots(page, 'last-key-generated')
  // once the group's list is refreshed (its limit is 0 now), nothing moves the user on
  await groupsRefreshed
  await expect(page).toHaveURL(new RegExp(`/app/nuitrack/dashboard/${id}/info/$`))
  await expect(page.getByText('This group has no license available to generate')).toHaveCount(0)
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // revoking says so too
  await page.getByRole('button', { name: 'Revoke the license' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByRole('alert').filter({ hasText: 'License revoked' })).toBeVisible()
})

test('keyboard and finish: the show-password toggle, the focus ring, long e-mails, trial and reset feedback', async ({ page }) => {
  // the toggle is the next stop after the password field, labelled, and works from the keyboard
  await page.goto('/app/login/')
  const password = page.getByLabel(/^Password/)
  await password.focus()
  await page.keyboard.press('Tab')
  const toggle = page.getByRole('button', { name: 'Show password' })
  await expect(toggle).toBeFocused()
  await expect(toggle).toHaveAttribute('aria-pressed', 'false')
  await page.keyboard.press('Space')
  await expect(password).toHaveAttribute('type', 'text')
  await page.keyboard.press('Enter')
  await expect(password).toHaveAttribute('type', 'password')
  // a clear focus ring: 2px solid, on the toggle and on a focused field
  const ring = (el: Element) => {
    const s = getComputedStyle(el)
    return `${s.outlineStyle} ${s.outlineWidth}`
  }
  expect(await toggle.evaluate(ring)).toBe('solid 2px')
  await page.getByLabel(/^E-mail/).focus()
  expect(await page.locator('.mantine-Input-input:focus').evaluate(ring)).toBe('solid 2px')
  await screenshots(page, 'login-focus')

  // password reset: success is said on arrival
  const { email } = await confirmedAccount(page.request)
  expect((await apiPost(page.request, '/api/client/send-password-reset-url/', { client_email: email })).ok()).toBe(true)
  const link = new URL((await lastMail(page.request, email, /password/i)).link)
  await page.goto(link.pathname + link.search)
  await page.getByLabel(/^New password/).fill('Brand-n3w-pass')
  await page.getByLabel(/^Repeat password/).fill('Brand-n3w-pass')
  await page.getByRole('button', { name: /save|set/i }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Password changed' })).toBeVisible()

  // the free Nuitrack trial: success is said
  await page.goto('/app/nuitrack/dashboard/')
  await page.getByRole('button', { name: 'Start the free Nuitrack trial' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Trial started' })).toBeVisible()

  // a very long new e-mail wraps inside its notice
  // no hyphen or other break opportunity in it: only overflow-wrap can break it
  const long = `${'m'.repeat(40)}${Date.now().toString(36)}@${'d'.repeat(60)}.example.com`
  await page.goto('/app/account/')
  await page.getByLabel('New e-mail').fill(long)
  await page.getByRole('button', { name: 'Change e-mail' }).click()
  const notice = page.getByTestId('pending-email-notice')
  await expect(notice).toContainText(long)
  for (const width of [1280, 800, 390]) {
    await page.setViewportSize({ width, height: 900 })
    expect(await notice.evaluate((el) => el.scrollWidth <= el.clientWidth), `notice at ${width}px`).toBe(true)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
  await expectAccessible(page, 'account-long-email')
  await screenshots(page, 'account-long-email')
})
