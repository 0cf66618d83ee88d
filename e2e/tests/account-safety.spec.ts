import type { Page } from '@playwright/test'
import { PASSWORD, apiPost, confirmedAccount, expect, expectAccessible, lastMail, screenshotAtWidth, settled, signIn, test, uniqueEmail } from '../fixtures.ts'

/** Each of 1280, 800 and 390 px wide checked by axe as it is, with a screenshot for a person to look at. */
async function look(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const width of [1280, 800, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await settled(page)
    await expectAccessible(page, `${name}-${width}`)
    await screenshotAtWidth(page, name)
  }
  await page.setViewportSize(size)
  await settled(page)
}

test.describe('account safety', () => {
  // every screen is looked at in three widths, each with axe
  test.setTimeout(240_000)

  test('an e-mail change tells the old address, whose link undoes it and signs everyone out', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    const moved = uniqueEmail('moved')
    await signIn(page, email)
    await page.goto('/app/account/')
    await page.getByLabel('New e-mail').fill(moved)
    await page.getByRole('button', { name: 'Change e-mail' }).click()
    const confirm = await lastMail(page.request, moved, /Confirm your new e-mail/)

    // signed in, the changed e-mail leads back to the account, not to a sign-in
    await page.goto(new URL(confirm.link).pathname)
    await expect(page.getByRole('heading', { name: 'E-mail changed' })).toBeVisible()
    await expect(page.getByText(`Your e-mail is now ${moved}.`)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Return to login' })).toHaveCount(0)
    await look(page, 'email-changed-signed-in')
    await page.getByRole('link', { name: 'Back to your account' }).click()
    await expect(page).toHaveURL(/\/app\/account\/$/)
    await expect(page.getByText(moved).first()).toBeVisible()

    // the old address is told, with a link that undoes the change
    const notice = await lastMail(page.request, email, /was changed/)
    expect(notice.text).toContain(`from ${email} to ${moved}`)
    expect(notice.text).toContain('within 7 days')
    await page.goto(new URL(notice.link).pathname)
    await expect(page.getByRole('heading', { name: 'Undo the e-mail change?' })).toBeVisible()
    await look(page, 'email-revert-ask')
    await page.getByRole('button', { name: 'Undo the change' }).click()
    await expect(page.getByRole('heading', { name: 'E-mail change undone' })).toBeVisible()
    await expect(page.getByText(`Your e-mail is ${email} again.`)).toBeVisible()
    await look(page, 'email-revert-done')

    // everyone was signed out, this browser too; the old address signs in again, the new one does not
    await page.goto('/app/account/')
    await expect(page).toHaveURL(/\/app\/login\/$/)
    expect((await apiPost(page.request, '/api/client/signin/', { username: moved, password: PASSWORD }, { 'x-forwarded-for': '10.77.0.1' })).status()).toBe(400)
    await signIn(page, email)
    // the link works once
    await page.goto(new URL(notice.link).pathname)
    await page.getByRole('button', { name: 'Undo the change' }).click()
    await expect(page.getByRole('heading', { name: 'The link does not work' })).toBeVisible()
    await look(page, 'email-revert-dead-link')
  })

  test('consent is opt-in: no news mail by default, and the analytics privacy box starts empty and links the policy', async ({ page }) => {
    const { email } = await confirmedAccount(page.request)
    await signIn(page, email)
    await page.goto('/app/account/')
    await expect(page.getByLabel('News of the company')).not.toBeChecked()

    await page.context().clearCookies()
    await page.goto('/app/registrate/nuitrack-analytics/')
    const box = page.getByLabel('I agree to the privacy policy')
    await expect(box).not.toBeChecked()
    await expect(page.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/external_resource/link/privacy_policy/')
    await page.getByLabel(/^E-mail/).fill(uniqueEmail('consent'))
    await page.getByLabel(/^Password/).fill(PASSWORD)
    await page.getByLabel(/^Repeat password/).fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('Please accept the privacy policy')).toBeVisible()
    await look(page, 'analytics-registration-consent')
    await box.check()
    await expect(page.getByText('Please accept the privacy policy')).toHaveCount(0)
    // the policy's address is the server's to name
    const policy = await page.request.get('/external_resource/link/privacy_policy/', { maxRedirects: 0 })
    expect(policy.status()).toBe(302)
    expect(policy.headers().location).toMatch(/^https:\/\//)
  })
})
