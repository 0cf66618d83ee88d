import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test } from '../fixtures.ts'

/** Every screen's title, the documentation links and the not-found screen. */

test('docs links redirect to the documentation; an unknown link name shows the not-found screen', { tag: '@full-browser' }, async ({ page, context }) => {
  const customer = await confirmedAccount(page.request)
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
  const customer = await confirmedAccount(page.request)
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
