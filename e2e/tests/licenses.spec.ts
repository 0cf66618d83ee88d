import { confirmedAccount, expect, expectAccessible, screenshots, signIn, test, portal } from '../fixtures.ts'

test('staff hand out licenses; the client filters, pages, renames, makes and resizes a group key, generates and revokes', async ({ page, browser }) => {
  // a long walk through many screens: 40-55 s on a loaded 2-core machine, so it gets room beyond the default 60 s
  test.setTimeout(180_000)
  const client = await confirmedAccount(page.request)
  // a staff member, in a browser of their own
  const staffContext = await browser.newContext()
  const staffPage = await staffContext.newPage()
  const staff = await confirmedAccount(staffPage.request)
  await portal('staff:grant', staff.email)
  await signIn(staffPage, staff.email)
  await staffPage.goto('/app/staff/custom-license/perpetual/')
  await expect(staffPage.getByRole('heading', { name: 'Custom licenses' })).toBeVisible()
  await staffPage.getByRole('textbox', { name: 'Title', exact: true }).fill('Door cameras')
  await staffPage.getByRole('textbox', { name: 'User e-mail' }).fill(client.email)
  await staffPage.getByRole('textbox', { name: 'Count' }).fill('3x')
  await expect(staffPage.getByRole('textbox', { name: 'Count' })).toHaveValue('3')
  // the lock options lock each other out
  await staffPage.getByLabel('Hardware (device request file)').check()
  await expect(staffPage.getByLabel('USB token')).toBeDisabled()
  await expect(staffPage.getByLabel('Platforms')).toBeDisabled()
  await staffPage.getByLabel('matcher').fill('2')
  await expectAccessible(staffPage, 'staff-form')
  await screenshots(staffPage, 'staff-form')
  await staffPage.getByRole('button', { name: 'Create' }).click()
  await expect(staffPage.getByTestId('staff-result')).toHaveText('Added 3 license(s).')
  await staffPage.getByRole('textbox', { name: 'User e-mail' }).fill('nobody@example.com')
  await staffPage.getByRole('button', { name: 'Create' }).click()
  await expect(staffPage.getByRole('textbox', { name: 'User e-mail' })).toHaveAccessibleDescription("A user with this e-mail doesn't exist")
  await staffContext.close()

  // the client sees the face licenses
  await signIn(page, client.email)
  await page.goto('/app/face/dashboard/')
  await expect(page.getByTestId('license-row')).toHaveCount(3)
  await expect(page.getByRole('link', { name: 'Door cameras' }).first()).toBeVisible()

  // a Nuitrack pool: 30 to generate, 25 licenses already made
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '30', '--os-type', '1')
  await portal('licenses:bulk', client.email, '25')
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByTestId('license-row')).toHaveCount(20)
  await expect(page.getByText('Showing 20 of 26')).toBeVisible()
  await page.getByRole('button', { name: /Show 6 more/ }).click()
  await expect(page.getByTestId('license-row')).toHaveCount(26)
  await expectAccessible(page, 'dashboard')
  await screenshots(page, 'dashboard')
  // filters: a status tab (every tenth bulk license is not activated), then a product filter resets the table
  await page.getByRole('tab', { name: /^Active/ }).click()
  // the filter change resets the table to its first 20 rows
  await expect(page.getByTestId('license-row')).toHaveCount(20)
  await expect(page.getByText('Showing 20 of 23')).toBeVisible()
  await expect(page.getByRole('tab', { name: /^Suspended \(0\)/ })).toBeDisabled()
  await page.getByText('Perpetual', { exact: true }).click()
  await expect(page.getByText('No licenses match the filter.')).toBeVisible()
  await expect(page.getByText('Showing 0 of 0')).toBeVisible()
  await page.getByText('All', { exact: true }).last().click()

  // rename a license on its info page
  await page.getByRole('tab', { name: /^All/ }).click()
  await page
    .getByRole('link', { name: 'Nuitrack Pro subscription #' + '' })
    .first()
    .click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/\d+\/info\/$/)
  await page.getByRole('button', { name: 'Edit title' }).click()
  await page.getByRole('dialog').getByLabel('Title').fill('   ')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('dialog').getByText('This field is required')).toBeVisible()
  await page.getByRole('dialog').getByLabel('Title').fill('Lobby kiosk')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('heading', { name: 'Lobby kiosk' })).toBeVisible()
  await expect(page.getByRole('dialog')).toBeHidden()
  await expectAccessible(page, 'license-info')
  await screenshots(page, 'license-info')

  // a group key of 5 from the pool, resized to 7
  await page.goto('/app/group-keys/')
  await page.getByRole('button', { name: 'Create a group key' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByLabel('Number of licenses')).toHaveValue('2')
  await dialog.getByLabel('Name').fill('Exhibition')
  await dialog.getByLabel('Number of licenses').fill('31')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('There are only 30 licenses available to add')).toBeVisible()
  await dialog.getByLabel('Number of licenses').fill('5')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/app\/group-keys\/\d+\/group-key-info\/$/)
  await expect(page.getByText('0 generated, 5 available, 5 in all')).toBeVisible()
  await page.getByLabel('Available licenses').fill('7')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('0 generated, 7 available, 7 in all')).toBeVisible()
  await expectAccessible(page, 'group-key-info')
  await screenshots(page, 'group-key-info')
  await page.goto('/app/group-keys/')
  await expect(page.getByTestId('group-key-row')).toHaveCount(1)
  await expectAccessible(page, 'group-keys')
  await screenshots(page, 'group-keys')

  // generate a key from the default group, revoke it, and the count comes back
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByText('23 of 23 licenses not generated yet')).toBeVisible()
  await page.getByRole('link', { name: 'Generate a key' }).click()
  await expect(page).toHaveURL(/\/pre-info\/$/)
  await expectAccessible(page, 'pre-info')
  await screenshots(page, 'pre-info')
  await page.getByLabel('Title of the new license (optional)').fill('Temporary')
  await page.getByRole('button', { name: 'Generate the key' }).click()
  await expect(page.getByRole('heading', { name: 'Temporary' })).toBeVisible()
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByText('22 of 23 licenses not generated yet')).toBeVisible()
  await page.getByRole('link', { name: 'Temporary' }).click()
  await page.getByRole('button', { name: 'Revoke the license' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(page.getByText('23 of 23 licenses not generated yet')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Temporary' })).toHaveCount(0)
})

test('a non-staff client is refused the staff form', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)
  await page.goto('/app/staff/custom-license/subscription/')
  await expect(page.getByRole('heading', { name: 'This page is for staff' })).toBeVisible()
})

test("a dashboard's first data comes from its page's preload links, each asked for once", async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '3', '--os-type', '1')
  await signIn(page, client.email)
  const asked: string[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.startsWith('/api/')) asked.push(`${url.pathname}${url.search}`)
  })
  const unused: string[] = []
  page.on('console', (m) => {
    if (/preloaded using link preload but not used/.test(m.text())) unused.push(m.text())
  })
  // the addresses the app itself fetches: a fetch that a preload answers makes no request of its own
  await page.addInitScript(() => {
    const fetched: string[] = []
    Object.assign(window, { e2eFetched: fetched })
    const fetch = window.fetch.bind(window)
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href)
      fetched.push(`${url.pathname}${url.search}`)
      return fetch(input, init)
    }
  })
  const html = await (await page.request.get('/app/nuitrack/dashboard/')).text()
  const preloads = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
  expect(preloads).toContain('/api/license/?type=nuitrack&status=all&product=all&offset=0&limit=20')
  await page.goto('/app/nuitrack/dashboard/')
  // the group of three to generate is the list's one row
  await expect(page.getByText('3 of 3 licenses not generated yet')).toBeVisible()
  await expect(page.getByTestId('license-row')).toHaveCount(1)
  // each preloaded answer served the app's own request: no address went out twice
  for (const url of preloads)
    expect(
      asked.filter((a) => a === url),
      url,
    ).toHaveLength(1)
  // and the app fetched each one: every preload was used (Chromium's warning about an unused one
  // comes seconds after the load event)
  const fetched = await page.evaluate(() => (window as unknown as { e2eFetched: string[] }).e2eFetched)
  for (const url of preloads) expect(fetched, url).toContain(url)
  expect(unused).toEqual([])
})

test('back from a license returns to where the dashboard was scrolled; a new page opens at its top', async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '30', '--os-type', '1')
  await portal('licenses:bulk', client.email, '25')
  await signIn(page, client.email)
  await page.setViewportSize({ width: 1280, height: 600 })
  await page.goto('/app/nuitrack/dashboard/')
  await expect(page.getByTestId('license-row')).toHaveCount(20)
  const last = page.getByTestId('license-row').last()
  await last.scrollIntoViewIfNeeded()
  const scrolled = await page.evaluate(() => window.scrollY)
  expect(scrolled).toBeGreaterThan(300)

  await last.getByRole('link').first().click()
  await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/\d+\/info\/$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)

  await page.goBack()
  await expect(page.getByTestId('license-row')).toHaveCount(20)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled)
  await expect(last).toBeInViewport()
})
