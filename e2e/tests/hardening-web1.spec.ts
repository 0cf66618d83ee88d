import { apiPost, cli, confirmedAccount, expect, expectAccessible, screenshots, lastMail, signIn, test } from '../fixtures.ts'

/** Issue 9, part C: the rough edges a new user hit (items 16, 17, 18, 20, 21, 25). */

/**
 * One customer for the tests below that need any signed-in client (sign-ups are limited per address,
 * and the whole browser suite shares one).
 */
let customer: { email: string; password: string }
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  customer = await confirmedAccount(request)
  await request.dispose()
})

test('staff: the menu link opens the staff form, the subscription tab works, errors sit at their fields', async ({ page }) => {
  const staff = await confirmedAccount(page.request)
  cli('staff:grant', staff.email)
  await signIn(page, staff.email)
  await page.goto('/app/nuitrack/dashboard/')
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Staff: custom licenses' }).click()
  await expect(page).toHaveURL(/\/app\/staff\/custom-license\/perpetual\/$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Custom licenses' })).toBeVisible()
  await expect(page).toHaveTitle('Custom perpetual licenses · 3DiVi Portal')

  await page.getByRole('tab', { name: 'Custom subscription license' }).click()
  await expect(page).toHaveURL(/\/app\/staff\/custom-license\/subscription\/$/)
  await expect(page.getByRole('tab', { name: 'Custom subscription license' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0)
  await expect(page).toHaveTitle('Custom subscription licenses · 3DiVi Portal')

  // components by name, not by identifier
  await expect(page.getByRole('textbox', { name: 'Age and gender estimator' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Liveness 2D estimator' })).toBeVisible()
  await expect(page.getByText('age gender estimator')).toHaveCount(0)

  // an empty submit: the errors at their fields, in words
  await page.getByRole('button', { name: 'Create' }).click()
  const title = page.getByRole('textbox', { name: 'Title' })
  await expect(title).toHaveAttribute('aria-invalid', 'true')
  await expect(title).toHaveAccessibleDescription('This field is required')
  await expect(title).toBeFocused()
  await expect(page.getByRole('textbox', { name: 'User e-mail' })).toHaveAccessibleDescription('Please enter your email')
  await expect(page.getByText('title: field empty error')).toHaveCount(0)
  await expect(page.getByTestId('staff-result')).toBeEmpty()
  await expectAccessible(page, 'staff-form-errors')
  await screenshots(page, 'staff-form-errors')

  // a real creation says so
  await title.fill('Door cameras')
  await page.getByRole('textbox', { name: 'User e-mail' }).fill(staff.email)
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByTestId('staff-result')).toHaveText('Added 1 license(s).')
  await expect(page.getByRole('alert').filter({ hasText: 'Licenses created' })).toBeVisible()
})

test('a customer on the staff address sees a plain staff-only screen', async ({ page }) => {
  await signIn(page, customer.email)
  await page.goto('/app/staff/custom-license/perpetual/')
  await expect(page.getByRole('heading', { level: 1, name: 'This page is for staff' })).toBeVisible()
  await expect(page.getByText(/npm|staff:grant/)).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Staff: custom licenses' })).toHaveCount(0)
  await expectAccessible(page, 'staff-only')
  await screenshots(page, 'staff-only')
})

test('the last key of a one-license group lands on the new license and stays there', async ({ page }) => {
  cli('licenses:grant', customer.email, 'nuitrack_subscribe', '1', '--os-type', '1')
  await signIn(page, customer.email)
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByText('1 of 1 licenses not generated yet')).toBeVisible()
  await page.getByRole('link', { name: 'Generate a key' }).click()
  await expect(page).toHaveURL(/\/pre-info\/$/)
  await page.getByLabel('Title of the new license (optional)').fill('Only kiosk')
  await page.getByRole('button', { name: 'Generate the key' }).click()

  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/\d+\/info\/$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Only kiosk' })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: 'Activation key generated' })).toBeVisible()
  const id = /\/dashboard\/(\d+)\/info\//.exec(page.url())![1]
  await expect(page).toHaveTitle(`License #${id} · Nuitrack · 3DiVi Portal`)
  await screenshots(page, 'last-key-generated')
  // the group's lists refresh behind the page; nothing moves the user on
  await page.waitForTimeout(1500)
  await expect(page).toHaveURL(new RegExp(`/app/nuitrack/dashboard/${id}/info/$`))
  await expect(page.getByText('This group has no license available to generate')).toHaveCount(0)
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // revoking says so too
  await page.getByRole('button', { name: 'Revoke the license' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByRole('alert').filter({ hasText: 'License revoked' })).toBeVisible()
})

test('docs links redirect to the documentation; an unknown link name shows the not-found screen', async ({ page, context }) => {
  // both Face SDK docs links of the activation panel: a redirect, not a JSON 404
  for (const name of ['face_sdk_docs_offline_license', 'face_sdk_docs_locking_to_a_usb_token']) {
    const res = await page.request.get(`/external_resource/link/${name}/`, { maxRedirects: 0 })
    expect(res.status(), name).toBe(302)
    expect(res.headers().location, name).toMatch(/^https:\/\/docs\.facesdk\.3divi\.com\//)
  }

  // clicking the dashboard's docs tile lands on the documentation (the internet is answered here)
  await context.route('https://docs.facesdk.3divi.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Face SDK</title><h1>Face SDK documentation</h1>' }),
  )
  await signIn(page, customer.email)
  await page.goto('/app/face/dashboard/')
  const docs = page.getByRole('link', { name: /Read the docs/ })
  await expect(docs).toHaveAttribute('href', '/external_resource/link/face_sdk_docs/')
  const [tab] = await Promise.all([context.waitForEvent('page'), docs.click()])
  await expect(tab.getByRole('heading', { name: 'Face SDK documentation' })).toBeVisible()
  expect(tab.url()).toBe('https://docs.facesdk.3divi.com/')
  await tab.close()

  // an unknown name: the portal's not-found screen, with status 404
  const res = await page.goto('/external_resource/link/x/')
  expect(res!.status()).toBe(404)
  expect(res!.headers()['content-type']).toMatch(/^text\/html/)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(page).toHaveTitle('Page not found · 3DiVi Portal')
  await expect(page.getByRole('link', { name: 'Face SDK' })).toHaveAttribute('href', '/app/face/dashboard/')
  await expect(page.locator('body')).not.toContainText('error_code')
  await expectAccessible(page, 'external-link-not-found')
  await screenshots(page, 'external-link-not-found')
  // any other page outside the app, too
  await page.goto('/no/such/page/')
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
})

test('every screen has its own title', async ({ page }) => {
  await page.goto('/app/login/')
  await expect(page).toHaveTitle('Sign in · 3DiVi Portal')
  await page.goto('/app/registration/')
  await expect(page).toHaveTitle('Create an account · 3DiVi Portal')
  await signIn(page, customer.email)
  const seen = new Set<string>()
  for (const [path, title] of [
    ['/app/nuitrack/dashboard/', 'Nuitrack dashboard · 3DiVi Portal'],
    ['/app/face/dashboard/', 'Face SDK dashboard · 3DiVi Portal'],
    ['/app/account/', 'Account · 3DiVi Portal'],
    ['/app/group-keys/', 'Group keys · 3DiVi Portal'],
  ] as const) {
    await page.goto(path)
    await expect(page).toHaveTitle(title)
    seen.add(await page.title())
  }
  expect(seen.size).toBe(4)
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
