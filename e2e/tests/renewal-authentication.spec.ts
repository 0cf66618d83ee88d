import type { APIRequestContext, Page } from '@playwright/test'
import { apiPost, confirmedAccount, expect, expectAccessible, lastMail, portal, screenshotAtWidth, screenshots, signIn, test } from '../fixtures.ts'

/**
 * A renewal whose card asks for authentication (SCA), end to end on the sandbox: a subscription
 * bought with Stripe's authentication test card 4000 0027 6000 3184, its renewal run as at its
 * period's end (subscriptions:renew --at --license), the mail's link to the renewal-payment page, paid there
 * through the sandbox's checkout, and the license in its next period.
 */

const SCA_CARD = '4000 0027 6000 3184'
const MONTH_MS = 2592000 * 1000
const day = (d: Date) => new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' }).format(d)

interface LicenseAnswer {
  id: number
  expire_date: string
  subscription: { state: string } | null
}

/** The client's generated license of its paid subscription group, once the payment's webhook has filled the group. */
async function licenseFromGroup(request: APIRequestContext): Promise<LicenseAnswer> {
  let groupId = 0
  await expect
    .poll(async () => {
      const groups = (await (await request.get('/api/group/')).json()) as { groups: { id: number; product: string; limit: number }[] }
      groupId = groups.groups.find((g) => g.product === 'nuitrack_online_subscription_monthly' && g.limit > 0)?.id ?? 0
      return groupId
    })
    .toBeGreaterThan(0)
  const made = await apiPost(request, `/api/group/${groupId}/new-license/`, { title: 'Authenticated renewal' })
  expect(made.ok(), await made.text()).toBe(true)
  return (await made.json()) as LicenseAnswer
}

/** The narrow phone width too, beside the fixture's 1280 and 800. */
async function phoneScreenshot(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('heading', { name: 'Renewal payment' })).toBeVisible()
  await screenshotAtWidth(page, name)
  await page.setViewportSize(size)
}

async function payOnSandbox(page: Page, card: string) {
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+\/$/)
  await page.getByRole('textbox', { name: 'Card number' }).fill(card)
  await page.getByRole('button', { name: /^Pay \$/ }).click()
}

test('a renewal that asks for card authentication is paid on-session from the mail link, and the license runs on', async ({ page }) => {
  test.setTimeout(180_000)
  const request = page.context().request
  const { email } = await confirmedAccount(request)
  await signIn(page, email)

  // bought through the sandbox's checkout with the authentication test card, which it keeps for the renewals
  const bought = await apiPost(request, '/api/resource/subscribe/', {
    payment_source: 'stripe',
    success_url: '/app/nuitrack/license-purchase-success/',
    cancel_url: '/app/nuitrack/basket/',
    items: [{ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2592000, os_type: 1 }, count: 1 }],
  })
  expect(bought.ok(), await bought.text()).toBe(true)
  await page.goto((await bought.json()).payment.provider_data.url as string)
  await payOnSandbox(page, SCA_CARD)
  await expect(page).toHaveURL(/\/app\/nuitrack\/license-purchase-success\//)
  const license = await licenseFromGroup(request)
  const periodEnd = new Date(license.expire_date)

  // the renewal falls due: the card asks for authentication, so the customer is mailed instead. Only
  // this license's: the other tests' subscriptions on this portal stay in their periods
  const ran = await portal('subscriptions:renew', '--at', new Date(periodEnd.getTime() + 60_000).toISOString(), '--license', String(license.id))
  expect(ran).toContain(': awaiting 1.')
  const mail = await lastMail(request, email, /^Confirm the payment for /)
  expect(mail.link).toContain(`/app/nuitrack/dashboard/${license.id}/renewal-payment/`)

  // the license screen says so, and is not suspended
  await page.goto(`/app/nuitrack/dashboard/${license.id}/info/`)
  const notice = page.getByTestId('awaiting-authentication')
  await expect(notice).toContainText('Your bank asks you to confirm the renewal payment')
  await expect(page.getByTestId('status-badge')).not.toHaveText('Suspended')

  await page.goto(mail.link)
  await expect(page.getByRole('heading', { name: 'Renewal payment' })).toBeVisible()
  await expect(page.getByTestId('renewal-amount')).toHaveText(/^\$\d+\.\d\d$/)
  await expect(page.getByTestId('renewal-period')).toHaveText(`${day(periodEnd)} to ${day(new Date(periodEnd.getTime() + MONTH_MS))}`)
  await expect(page.getByTestId('renewal-pay-by')).toHaveText(day(new Date(periodEnd.getTime() + 7 * 86_400_000)))
  await expectAccessible(page, 'renewal payment')
  await screenshots(page, 'renewal-payment')
  await phoneScreenshot(page, 'renewal-payment')

  // keyboard: the pay button is reachable and pays through the sandbox's checkout (the customer authenticates there)
  const pay = page.getByRole('button', { name: /^Pay \$/ })
  await pay.focus()
  await page.keyboard.press('Enter')
  await payOnSandbox(page, SCA_CARD)
  await expect(page).toHaveURL(new RegExp(`/app/nuitrack/dashboard/${license.id}/renewal-payment/\\?paid`))
  const next = new Date(periodEnd.getTime() + MONTH_MS)
  await expect(page.getByTestId('renewal-settled')).toContainText(`The license runs until ${day(next)}`, { timeout: 30_000 })
  await screenshots(page, 'renewal-payment-paid')

  const after = (await (await request.get(`/api/license/${license.id}/`)).json()) as LicenseAnswer
  expect(after.expire_date).toBe(next.toISOString())
  expect(after.subscription?.state).toBe('active')
  await page.getByRole('link', { name: 'See the license' }).click()
  await expect(page.getByRole('region', { name: 'Subscription' }).getByTestId('subscription-status')).toHaveText('Active')
  await expect(page.getByTestId('awaiting-authentication')).toHaveCount(0)
})
