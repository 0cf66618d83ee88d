import { PASSWORD, apiPost, confirmedAccount, expect, expectAccessible, lastMail, screenshots, signIn, test, uniqueEmail } from '../fixtures.ts'

test.describe('sign-in family and account', () => {
  test('register, confirm from the mailbox, sign in to the remembered page, edit the account, change the password, sign in again', async ({ page }) => {
    const email = uniqueEmail('newcomer')
    await page.goto('/app/registration/')
    await expectAccessible(page, 'registration')
    await screenshots(page, 'registration')
    await page.getByText('Corporate', { exact: true }).click()
    await expect(page.getByRole('radio', { name: 'Corporate' })).toBeChecked()
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByLabel(/^Repeat password/).fill('Mismatch-1')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText("Password doesn't match")).toBeVisible()
    await page.getByLabel(/^Repeat password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'Registration complete' })).toBeVisible()
    await screenshots(page, 'registration-complete')

    // the confirmation link from the dev outbox
    const mail = await lastMail(page.request, email)
    expect(mail.subject).toBe('Confirm your registration')
    await page.goto(new URL(mail.link).pathname)
    await expect(page.getByRole('heading', { name: 'Registration confirmed' })).toBeVisible()
    await expectAccessible(page, 'registration-confirmed')

    // a signed-out visit is remembered and resumed after sign-in
    await page.goto('/app/account/')
    await expect(page).toHaveURL(/\/app\/login\/$/)
    await expectAccessible(page, 'login')
    await screenshots(page, 'login')
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/app\/account\/$/)
    await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible()

    // corporate accounts see company fields; edit the profile
    await page.getByLabel('Name', { exact: true }).fill('Ada')
    await page.getByLabel('Last name').fill('Lovelace')
    await page.getByLabel('Company name').fill('Analytical Engines')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await expect(page.getByTestId('display-name').or(page.getByText('Ada Lovelace')).first()).toContainText('Ada Lovelace')
    await expectAccessible(page, 'account')
    await screenshots(page, 'account')
    await page.reload()
    await expect(page.getByLabel('Company name')).toHaveValue('Analytical Engines')

    // change the password: the wrong current one is refused next to its field
    const newPassword = 'N3w-Password'
    await page.getByLabel('Current password').fill('Wrong-pass1')
    await page.getByLabel('New password', { exact: true }).fill(newPassword)
    await page.getByLabel('Repeat new password').fill(newPassword)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('Password is incorrect')).toBeVisible()
    await page.getByLabel('Current password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('Your password has been changed')).toBeVisible()

    // sign out, and in again with the new password
    await page.getByRole('link', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/app\/login\/$/)
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByText('Password is incorrect')).toBeVisible()
    await page.getByLabel(/^Password/).fill(newPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  })

  test('an unconfirmed account sees the confirm-your-email screen and can resend', async ({ page }) => {
    const email = uniqueEmail('unconfirmed')
    expect((await apiPost(page.request, '/api/client/signup/', { username: email, password: PASSWORD })).status()).toBe(201)
    await page.goto('/app/login/')
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible()
    await expectAccessible(page, 'confirm-your-email')
    await page.getByRole('button', { name: /resend/i }).click()
    await expect(page.getByText('Link sent')).toBeVisible()
  })

  test('forgot password, set a new one from the mail; an used link shows the expired screen', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await page.goto('/app/forgot-password/')
    await expectAccessible(page, 'forgot-password')
    await screenshots(page, 'forgot-password')
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByRole('button', { name: /send/i }).click()
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible()
    const mail = await lastMail(page.request, email, /password/i)
    const link = new URL(mail.link)
    await page.goto(link.pathname + link.search)
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible()
    await expectAccessible(page, 'set-password')
    await page.getByLabel(/^New password/).fill('Brand-n3w-pass')
    await page.getByLabel(/^Repeat password/).fill('Brand-n3w-pass')
    await page.getByRole('button', { name: /save|set/i }).click()
    await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
    await page.context().clearCookies()
    await page.goto(link.pathname)
    await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible()
    await expectAccessible(page, 'set-password-expired')
    await screenshots(page, 'set-password-expired')
  })

  test('a broken confirmation link shows the confirmation-error screen', async ({ page }) => {
    await page.goto('/app/registration-confirm/99999/AAAAAAAAAAAAAAAAAAAAAAAA/')
    await expect(page.getByRole('heading', { name: 'Confirmation failed' })).toBeVisible()
    await expectAccessible(page, 'confirmation-failed')
  })
})

test.describe('redirects of section 2', () => {
  test('signed out', async ({ page }) => {
    const cases: [string, RegExp][] = [
      ['/', /\/app\/login\/$/],
      ['/app/', /\/app\/login\/$/],
      ['/app/face/dashboard/', /\/app\/login\/$/],
      ['/app/face/login/', /\/app\/login\/\?platform=face$/],
      ['/app/nuitrack-analytics/registration/', /\/app\/registration\/\?platform=nuitrack-analytics$/],
      ['/app/login/face-machine/', /\/app\/login\/nuitrack-analytics\/$/],
      ['/app/registrate/face-machine/', /\/app\/registrate\/nuitrack-analytics\/$/],
      ['/app/login/unknown/path/', /\/app\/login\/$/],
    ]
    for (const [from, to] of cases) {
      await page.goto(from)
      await expect(page, from).toHaveURL(to)
    }
  })

  test('signed in, with the remembered platform and the not-found screen', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await page.goto('/app/face/dashboard/')
    await expect(page).toHaveURL(/\/app\/login\/$/)
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/app\/face\/dashboard\/$/)
    const cases: [string, RegExp][] = [
      ['/app/', /\/app\/nuitrack\/dashboard\/$/],
      ['/app/face/', /\/app\/face\/dashboard\/$/],
      ['/app/face/face-machine/', /\/app\/face-machine\/dashboard\/$/],
      ['/app/registration/', /\/app\/nuitrack\/dashboard\/$/],
      ['/app/forgot-password/?platform=face', /\/app\/face\/dashboard\/$/],
      ['/app/login/?next=/app/group-keys/', /\/app\/login\/\?next=/],
    ]
    for (const [from, to] of cases) {
      await page.goto(from)
      await expect(page, from).toHaveURL(to)
    }
    await page.goto('/app/no-such-page/')
    await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Face SDK' })).toBeVisible()
    await expectAccessible(page, 'not-found')
    await screenshots(page, 'not-found')
  })

  test('?next is followed after sign-in only when it stays under /app/', async ({ page: first, browser }) => {
    const { email } = await confirmedAccount(first.request)
    for (const [next, to] of [
      ['/app/payment-doc/', /\/app\/payment-doc\/$/],
      ['https://evil.example/', /\/app\/nuitrack\/dashboard\/$/],
      ['//evil.example/app/', /\/app\/nuitrack\/dashboard\/$/],
    ] as const) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`/app/login/?next=${encodeURIComponent(next)}`)
      await page.getByLabel(/^E-mail/).fill(email)
      await page.getByLabel(/^Password/).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page).toHaveURL(to)
      await context.close()
    }
  })
})

test.describe('shell and keyboard', () => {
  test('the side menu collapses at 1024 px and opens from the burger', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await signIn(page, email)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/app/payment-doc/')
    const menu = page.getByRole('navigation', { name: 'Main menu' }).or(page.locator('#side-menu'))
    await expect(page.getByRole('link', { name: 'Group keys' })).toBeInViewport()
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden()
    await expectAccessible(page, 'payment-doc')
    await screenshots(page, 'payment-doc')
    await page.setViewportSize({ width: 1024, height: 800 })
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Group keys' })).not.toBeInViewport()
    await screenshots(page, 'shell-collapsed')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('link', { name: 'Group keys' })).toBeInViewport()
    await expect(menu.first()).toBeVisible()
  })

  test('the login form and the error modal work from the keyboard alone', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await page.goto('/app/login/')
    await page.getByLabel(/^E-mail/).focus()
    await page.keyboard.type(email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)

    // a license id that is not a number: the error modal, closed with the keyboard
    await page.goto('/app/nuitrack/dashboard/abc/info/')
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('An error occurred during the operation')
    await expectAccessible(page, 'error-modal')
    await screenshots(page, 'error-modal')
    await expect(dialog.getByRole('button', { name: 'OK' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/\/app\/nuitrack\/dashboard\/$/)
  })

  test('release notes: two entries, then the earlier ones', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await signIn(page, email)
    await page.goto('/app/nuitrack/dashboard/')
    await page.getByRole('button', { name: /release notes/i }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText(/1\.0\.0/)).toBeVisible()
    await expect(dialog.getByText(/0\.8\.0/)).toBeHidden()
    await dialog.getByRole('button', { name: /earlier/i }).click()
    await expect(dialog.getByText(/0\.8\.0/)).toBeVisible()
    await expectAccessible(page, 'whats-new')
  })
})

test.describe('Nuitrack Analytics registration', () => {
  test('captcha, then fill-info, then the analytics sign-in; an existing account gets the exist step', async ({ page }) => {
    const email = uniqueEmail('cloud')
    await page.goto('/app/registrate/face-machine/')
    await expect(page).toHaveURL(/\/app\/registrate\/nuitrack-analytics\/$/)
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByLabel(/^Repeat password/).fill(PASSWORD)
    // consent is opt-in: the box starts empty, and the form asks for it
    await expect(page.getByLabel('I agree to the privacy policy')).not.toBeChecked()
    // no captcha yet: the form says so
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('Please solve the captcha')).toBeVisible()
    await expect(page.getByText('Please accept the privacy policy')).toBeVisible()
    await page.getByLabel('I agree to the privacy policy').check()
    await page.getByLabel("I'm not a robot").click()
    await expect(page.getByLabel("I'm not a robot")).toBeChecked({ timeout: 30_000 })
    await expectAccessible(page, 'analytics-registration')
    await screenshots(page, 'analytics-registration')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'Tell us about you' })).toBeVisible()
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page.getByText('Fill in at least one field, or skip this step')).toBeVisible()
    await page.getByLabel('Company').fill('Shops Inc')
    await expectAccessible(page, 'analytics-fill-info')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page).toHaveURL(/\/app\/login\/nuitrack-analytics\/\?registered=1$/)
    await expect(page.getByText('Your account is created.')).toBeVisible()
    const mail = await lastMail(page.request, email)
    expect(mail.link).toContain('platform=nuitrack-analytics')

    // the same e-mail again: the exist step
    await page.goto('/app/registrate/nuitrack-analytics/')
    await page.getByLabel(/^E-mail/).fill(email)
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByLabel(/^Repeat password/).fill(PASSWORD)
    await page.getByLabel('I agree to the privacy policy').check()
    await page.getByLabel("I'm not a robot").click()
    await expect(page.getByLabel("I'm not a robot")).toBeChecked({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'You already have an account' })).toBeVisible()
  })
})

test("the sign-in page is drawn with Mantine's styles", async ({ page }) => {
  await page.goto('/app/login/')
  const signIn = page.getByRole('button', { name: 'Sign in' })
  await expect(signIn).toBeVisible()
  // a filled button, not the browser's grey one
  const background = await signIn.evaluate((el) => getComputedStyle(el).backgroundColor)
  expect(background).not.toBe('rgba(0, 0, 0, 0)')
  expect(background).not.toBe('rgb(239, 239, 239)')
})
