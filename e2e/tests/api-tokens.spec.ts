import { confirmedAccount, expect, portal, screenshots, signIn, test } from '../fixtures.ts'

test('a script uses an API token to list licenses and make a key, until the token is revoked', async ({ page, request }) => {
  // a journey over the account screen, a script's calls and screenshots at three widths
  test.setTimeout(180_000)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const client = await confirmedAccount(page.request)
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '5', '--os-type', '1')
  await signIn(page, client.email)
  await page.goto('/app/account/')

  // make a token: shown once, copied
  const tokens = page.getByRole('region', { name: 'API tokens' })
  // the first screen of a fresh server: its chunks and first queries on a shared machine
  await expect(tokens.getByText('No tokens yet.')).toBeVisible({ timeout: 30_000 })
  await tokens.getByLabel('Token name').fill('Kiosk provisioning')
  await tokens.getByLabel('Scope').selectOption({ label: 'Manage' })
  await tokens.getByLabel('Expires after').selectOption({ label: '30 days' })
  await tokens.getByRole('button', { name: 'Create token' }).click()
  const secret = (await tokens.getByTestId('new-token-value').textContent())!.trim()
  expect(secret).toMatch(/^lp_[A-Za-z0-9_-]{43}$/)
  await tokens.getByRole('button', { name: 'Copy' }).click()
  await expect(tokens.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
  await expect(tokens.getByTestId('token-row')).toContainText('Kiosk provisioning')

  // a webhook endpoint, so the panel shows one
  const hooks = page.getByRole('region', { name: 'Webhooks' })
  await hooks.getByLabel('Endpoint URL').fill('https://example.com/portal-events')
  await hooks.getByRole('checkbox', { name: 'A device is activated' }).check()
  await hooks.getByRole('checkbox', { name: 'A device is released' }).check()
  await hooks.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(hooks.getByTestId('webhook-endpoint')).toContainText('https://example.com/portal-events')
  await screenshots(page, 'account-api-tokens-and-webhooks')

  // the script: the token alone, no cookie, no CSRF header
  const auth = { authorization: `Bearer ${secret}` }
  const groups = await request.get('/api/group/', { headers: auth })
  expect(groups.status()).toBe(200)
  const group = ((await groups.json()) as { groups: { id: number; product: string }[] }).groups.find((g) => g.product === 'nuitrack_subscribe')!
  const made = await request.post(`/api/group/${group.id}/new-license/`, { headers: auth, data: { title: 'Kiosk 1' } })
  expect(made.status(), await made.text()).toBe(200)
  const key = ((await made.json()) as { id: number; token: string }).token
  const list = await request.get('/api/license/', { headers: auth })
  expect(list.status()).toBe(200)
  expect(((await list.json()) as { licenses: { token: string }[] }).licenses.map((l) => l.token)).toEqual([key])

  // revoke it on the account page: the next call is refused with its code
  // the kiosk activates its key on the device API: the endpoint's delivery is logged
  const activated = await request.post('/api/sdk/activate/', { data: { key, fingerprint: 'kiosk-1', name: 'Kiosk 1' } })
  expect(activated.status(), await activated.text()).toBe(200)

  // its last use shows once the page reads the list again
  await page.reload()
  await expect(tokens.getByTestId('token-row')).toContainText('Kiosk provisioning', { timeout: 30_000 })
  await expect(tokens.getByTestId('token-row')).not.toContainText('Never used')
  await expect(hooks.getByTestId('webhook-delivery')).toContainText('device.activated')
  await screenshots(page, 'account-api-tokens-and-webhooks-used')
  await tokens.getByRole('button', { name: 'Revoke Kiosk provisioning' }).click()
  await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke' }).click()
  await expect(tokens.getByTestId('token-row')).toContainText('Revoked')
  const refused = await request.get('/api/license/', { headers: auth })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toMatchObject({ error_code: '5b406fb4' })
})
