import { apiPost, confirmedAccount, expect, lastMail, portal, screenshots, signIn, test, uniqueEmail } from '../fixtures.ts'

test('an owner invites a developer, who registers through the mail, generates a key and cannot top up', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const owner = await confirmedAccount(page.request)
  await portal('licenses:grant', owner.email, 'nuitrack_subscribe', '3', '--os-type', '1')
  await signIn(page, owner.email)
  expect((await apiPost(page.context().request, '/api/client/', { company: { name: 'Acme Robotics' }, options: { corporate_member: true } })).ok()).toBe(true)

  // the owner invites a developer from the members screen
  await page.goto('/app/members/')
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible()
  await expect(page.getByTestId('member-row')).toHaveCount(1)
  const developer = uniqueEmail('developer')
  await page.getByRole('textbox', { name: 'E-mail' }).fill(developer)
  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('Developer')
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByTestId('invitation-row')).toContainText(developer)
  await screenshots(page, 'members-owner')

  // the developer opens the mail's link in a browser of their own and registers through it
  const mail = await lastMail(page.request, developer, /invited/)
  const devContext = await browser.newContext()
  const dev = await devContext.newPage()
  await dev.goto(new URL(mail.link).pathname)
  await expect(dev.getByRole('heading', { name: 'Join Acme Robotics' })).toBeVisible()
  await dev.getByLabel(/^Password/).fill('Str0ng-Pass')
  await dev.getByLabel(/^Repeat password/).fill('Str0ng-Pass')
  await dev.getByRole('button', { name: 'Create account and join' }).click()
  await expect(dev).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  await expect(dev.getByTestId('current-role')).toHaveText('Developer')

  // a developer generates a key from the organisation's licenses
  await expect(dev.getByText('3 of 3 licenses not generated yet')).toBeVisible()
  await dev.getByRole('link', { name: 'Generate a key' }).click()
  await dev.getByLabel('Title of the new license (optional)').fill('Robot arm')
  await dev.getByRole('button', { name: 'Generate the key' }).click()
  await expect(dev.getByRole('heading', { name: 'Robot arm' })).toBeVisible()

  // but handles no money: the balance has no Add funds, and the server refuses a top-up
  await expect(dev.getByTestId('balance')).toBeVisible()
  await expect(dev.getByText('Add funds')).toHaveCount(0)
  const refill = await apiPost(dev.context().request, '/api/balance/refill/', { amount: '10' })
  expect(refill.status()).toBe(403)
  expect((await refill.json()).error_code).toBe('b7e2c94a')

  // the account menu names the person and the accounts they act in
  await dev.getByRole('button', { name: 'Account menu' }).click()
  await expect(dev.getByTestId('account-menu-dropdown')).toContainText(`Signed in as ${developer}`)
  await expect(dev.getByTestId('switch-account')).toHaveCount(2)
  await screenshots(dev, 'account-menu')
  await dev.keyboard.press('Escape')

  // the owner sees the new member, and the history names who generated the key
  await page.goto('/app/members/')
  await expect(page.getByTestId('member-row')).toHaveCount(2)
  await expect(page.getByTestId('invitation-row')).toHaveCount(0)
  await page.goto('/app/account/')
  await expect(page.getByTestId('history-actor').first()).toHaveText(`by ${developer}`)

  // with a member in it, the company cannot turn personal: the refusal sits under the switch, on a phone too
  await page.setViewportSize({ width: 390, height: 844 })
  const type = page.getByRole('region', { name: 'Account type' })
  await type.getByRole('button', { name: 'Switch to personal' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Switch', exact: true }).click()
  await expect(type.getByRole('alert')).toContainText('Remove the other members before switching to a personal account')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await screenshots(page, 'account-type-refused', [390])
  await type.getByRole('link', { name: 'Go to the members' }).click()
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible()
  await devContext.close()
})

test('a billing member buys from the organisation’s balance; its keys are left to the developers', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const owner = await confirmedAccount(page.request)
  await portal('balance:adjust', owner.email, '200', '--reason', 'e2e billing member')
  await signIn(page, owner.email)
  const ownerApi = page.context().request
  expect((await apiPost(ownerApi, '/api/client/', { company: { name: 'Acme Robotics' }, options: { corporate_member: true } })).ok()).toBe(true)

  // someone with an account of their own is invited as billing and accepts after signing in
  const billingContext = await browser.newContext()
  const billing = await billingContext.newPage()
  const person = await confirmedAccount(billing.request)
  expect((await apiPost(ownerApi, '/api/org/invitations/', { email: person.email, role: 'billing' })).ok()).toBe(true)
  const mail = await lastMail(page.request, person.email, /invited/)
  const token = /\/app\/invitation\/([\w-]+)\//.exec(mail.link)![1]
  await signIn(billing, person.email)
  const accepted = await apiPost(billing.context().request, `/api/invitation/${token}/accept/`, {})
  expect(accepted.ok(), await accepted.text()).toBe(true)

  // one Nuitrack product, paid from the organisation's balance
  await billing.goto('/app/nuitrack/basket/checkout/')
  await expect(billing.getByTestId('current-role')).toHaveText('Billing')
  await billing
    .getByRole('button', { name: /^Add Nuitrack/ })
    .first()
    .click()
  await billing.getByRole('button', { name: 'Continue' }).click()
  await expect(billing.getByRole('radio', { name: 'From the balance' })).toBeChecked()
  await billing.getByRole('button', { name: /^Pay \$/ }).click()
  const thanks = billing.getByRole('dialog', { name: 'Thank you for your purchase' })
  await expect(thanks).toContainText('An owner or a developer of the account generates their activation keys')
  await expect(thanks.getByRole('button', { name: /^Generate/ })).toHaveCount(0)

  // the purchase is the organisation's: the owner sees it in the payment documents
  await page.goto('/app/payment-doc/')
  await expect(page.getByRole('heading', { name: 'Payment documents', level: 1 })).toBeVisible()
  await expect(page.getByTestId('transaction-row').first()).toBeVisible()
  await billingContext.close()
})
