import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { apiPost, confirmedAccount, expect, expectAccessible, portal, screenshotAtWidth, settled, signIn, test } from '../fixtures.ts'

/**
 * Every screen a customer has, at 1280, 800 and 390 px: the page never scrolls sideways, its main
 * actions are in the window and not covered (a wide table scrolls inside its box, with a cue), no
 * button cuts its text, the feedback button stays in the header, and axe finds nothing serious.
 * One account, with a license, a device, a group slot, a group key and an invoice, made once.
 */

// each half visits about a dozen screens, each checked by axe at three widths
test.describe.configure({ timeout: 600_000 })

const WIDTHS = [1280, 800, 390] as const

interface Data {
  email: string
  licenseId: number
  slotGroupId: number
  groupKeyId: number
}
let data: Data

async function ok(res: Awaited<ReturnType<APIRequestContext['get']>>) {
  expect(res.ok(), `${res.url()}: ${await res.text()}`).toBe(true)
  return res.json() as Promise<Record<string, unknown>>
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
  const { email, password } = await confirmedAccount(request)
  await portal('staff:grant', email)
  await portal('licenses:grant', email, 'nuitrack_subscribe', '4', '--os-type', '1')
  await portal('balance:adjust', email, '50', '--reason', 'e2e every width')
  await ok(await apiPost(request, '/api/client/signin/', { username: email, password }))
  const { groups } = (await ok(await request.get('/api/group/'))) as { groups: { id: number; product: string }[] }
  const group = groups.find((g) => g.product === 'nuitrack_subscribe')!
  // a license with a device, a group key of two, and one slot left to generate
  await ok(await apiPost(request, `/api/group/${group.id}/new-license/`, { title: 'Reception kiosk, north lobby entrance, building B' }))
  const { licenses } = (await ok(await request.get('/api/license/'))) as { licenses: { id: number; token: string }[] }
  const license = licenses[0]!
  await ok(
    await apiPost(request, '/api/sdk/activate/', {
      key: license.token,
      fingerprint: 'e2e-every-width-1',
      name: 'Lobby kiosk',
      properties: { serial: 'SN-390' },
    }),
  )
  const split = (await ok(await apiPost(request, `/api/group/${group.id}/split/`, { title: 'Lab key', limit: 2 }))) as { dest_group: { id: number } }
  // a paid purchase from the balance: a transaction with its invoice
  await ok(
    await apiPost(request, '/api/resource/subscribe/', {
      payment_source: 'balance',
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/basket/checkout/',
      items: [{ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }],
    }),
  )
  await request.dispose()
  data = { email, licenseId: license.id, slotGroupId: group.id, groupKeyId: split.dest_group.id }
})

/** What is wrong with the page at this width: a sideways page scroll, controls out of reach, cut button texts. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const width = window.innerWidth
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`)
    // a box that scrolls sideways (a wide table, with its shadow cue) makes what is inside it reachable
    const scrolls = (el: Element) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        const overflow = getComputedStyle(a).overflowX
        if ((overflow === 'auto' || overflow === 'scroll') && a.scrollWidth > a.clientWidth) return true
      }
      return false
    }
    const name = (el: Element) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)
    const controls = document.querySelectorAll(
      'header a[href], header button, main a[href], main button, main input, main [role="tab"], [role="dialog"] button',
    )
    for (const el of Array.from(controls)) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if ((r.left < -1 || r.right > width + 1) && !scrolls(el))
        problems.push(`out of reach: ${el.tagName} "${name(el)}" at ${Math.round(r.left)}..${Math.round(r.right)}`)
      // a button's label cut by its box (Mantine's buttons are one line that hides what overflows)
      if (el.tagName === 'BUTTON' || el.tagName === 'A') {
        for (const part of [el, ...Array.from(el.querySelectorAll('span'))]) {
          const style = getComputedStyle(part)
          // a visually hidden part (one pixel, for screen readers) is no cut text, nor is one shortened on purpose with an ellipsis
          if (style.overflow !== 'visible' && style.textOverflow !== 'ellipsis' && part.clientWidth > 1 && part.scrollWidth > part.clientWidth + 1) {
            problems.push(`cut text: "${name(el)}"`)
            break
          }
        }
      }
    }
    return problems
  })
}

/** The control is in the window once scrolled to, and nothing covers its middle (a floating button did). */
async function expectReachable(page: Page, control: Locator) {
  await control.scrollIntoViewIfNeeded({ timeout: 20_000 })
  await expect(control).toBeVisible()
  await expect(control).toBeInViewport()
  const covered = await control.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return top && (el === top || el.contains(top)) ? null : (top?.outerHTML.slice(0, 120) ?? 'nothing')
  })
  expect(covered, `covering ${await control.evaluate((el) => el.outerHTML.slice(0, 80))}`).toBeNull()
}

/** The screen is ready (its heading shown), then every check: layout, the actions named, the feedback button in the header, axe. */
async function check(page: Page, screen: string, heading: Locator, actions: Locator[] = [], shot = false) {
  // a screen's code loads on its first visit, and this machine may be busy
  await expect(heading).toBeVisible({ timeout: 30_000 })
  await settled(page)
  expect(await layoutProblems(page), `${screen} at ${page.viewportSize()!.width} px`).toEqual([])
  for (const action of actions) await expectReachable(page, action)
  const feedback = page.getByRole('button', { name: 'Feedback' })
  if (await feedback.count()) {
    const [button, header] = [await feedback.boundingBox(), await page.getByRole('banner').filter({ has: feedback }).boundingBox()]
    expect(button!.y + button!.height, `${screen}: the feedback button stays in the header`).toBeLessThanOrEqual(header!.y + header!.height)
  }
  await expectAccessible(page, `${screen} at ${page.viewportSize()!.width} px`)
  if (shot) {
    // the header is fixed: a full-page picture is drawn from the top, with every table scrolled back to its start
    await page.evaluate(() => {
      window.scrollTo(0, 0)
      for (const el of Array.from(document.querySelectorAll('main *'))) if (el.scrollLeft > 0) el.scrollLeft = 0
    })
    await screenshotAtWidth(page, `every-width-${screen}`)
  }
}

const h1 = (page: Page, name?: string | RegExp) => page.getByRole('heading', { level: 1, ...(name ? { name } : {}) })
const main = (page: Page) => page.getByRole('main')

/**
 * `check` at 1280, 800 and 390 px in turn, the window resized around the screen as it is (loaded
 * once): a window made narrower or wider must lay the screen out as well as one opened at that width.
 */
async function checkAtEveryWidth(page: Page, screen: string, heading: Locator, actions: Locator[] = [], shot = false) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    await check(page, screen, heading, actions, shot)
  }
}

// the walk in two halves, one for each worker; each screen is loaded once and checked at every width
test('the signed-out screens, the dashboards, a license and the group keys at every width: no sideways scroll, the actions in reach, nothing covered, axe clean', async ({
  page,
}) => {
  // the sign-in family, signed out
  await page.goto('/app/login/')
  await checkAtEveryWidth(page, 'login', h1(page), [page.getByRole('button', { name: 'Sign in' })])
  await page.goto('/app/registration/')
  await checkAtEveryWidth(page, 'registration', h1(page), [page.getByRole('button', { name: 'Create account' })])
  await page.goto('/app/forgot-password/')
  await checkAtEveryWidth(page, 'forgot-password', h1(page), [main(page).getByRole('button').last()])
  await page.goto('/app/login/nuitrack-analytics/')
  await checkAtEveryWidth(page, 'analytics-login', h1(page), [page.getByRole('button', { name: 'Sign in' })])
  await page.goto('/app/registrate/nuitrack-analytics/')
  await checkAtEveryWidth(page, 'analytics-registration', h1(page), [page.getByRole('button', { name: 'Create account' })])

  await signIn(page, data.email)

  for (const width of WIDTHS) {
    // opened at this width: the first stop of the keyboard is the skip link, and it leads into the page
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/app/nuitrack/dashboard/')
    await expect(page.getByTestId('license-row').first()).toBeVisible()
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to the main content' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(main(page)).toBeFocused()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true)
    const row = page.getByTestId('license-row').filter({ hasText: 'Reception kiosk' })
    await check(page, 'dashboard', h1(page), [row.getByRole('link'), row.getByText('Renews monthly')], true)
  }

  // the other dashboards
  for (const platform of ['face', 'face-machine', 'nuitrack-analytics']) {
    await page.goto(`/app/${platform}/dashboard/`)
    await checkAtEveryWidth(page, `dashboard-${platform}`, h1(page))
  }

  // a license with its device, a group slot, the group keys
  await page.goto(`/app/nuitrack/dashboard/${data.licenseId}/info/`)
  const devices = page.getByRole('region', { name: 'Devices' })
  await checkAtEveryWidth(page, 'license-info', h1(page), [devices.getByRole('button', { name: 'Release' }), devices.getByText('e2e-every-width-1')], true)
  await page.goto(`/app/nuitrack/dashboard/${data.slotGroupId}/pre-info/`)
  await checkAtEveryWidth(page, 'pre-info', h1(page), [page.getByRole('button', { name: 'Generate the key' })])

  await page.goto('/app/group-keys/')
  const keyRow = page.getByTestId('group-key-row')
  await checkAtEveryWidth(page, 'group-keys', h1(page), [keyRow.getByRole('link', { name: 'Lab key' }), keyRow.getByText('2', { exact: true }).first()])
  await page.goto(`/app/group-keys/${data.groupKeyId}/group-key-info/`)
  await checkAtEveryWidth(page, 'group-key-info', h1(page))
})

test('the basket, the money screens and the account at every width: no sideways scroll, the actions in reach, nothing covered, axe clean', async ({ page }) => {
  await signIn(page, data.email)

  // the basket: the comparison (each plan's button), the other platforms' plans, the checkouts and their payment step
  await page.goto('/app/nuitrack/basket/license-selection/')
  await checkAtEveryWidth(
    page,
    'nuitrack-comparison',
    h1(page),
    ['Buy Pro', 'Buy AI'].map((name) => page.getByRole('link', { name })),
    true,
  )
  await page.goto('/app/face/basket/license-selection/')
  await checkAtEveryWidth(page, 'face-plans', h1(page))
  await page.goto('/app/nuitrack-analytics/basket/license-selection/')
  await checkAtEveryWidth(page, 'analytics-plans', h1(page))
  await page.goto('/app/nuitrack/basket/checkout/')
  const add = main(page).getByRole('button', { name: /^Add / })
  await checkAtEveryWidth(page, 'checkout-empty', h1(page), [add.first(), add.last()])
  await add.first().click()
  await checkAtEveryWidth(page, 'checkout', h1(page), [page.getByRole('button', { name: 'One more' }), page.getByRole('button', { name: 'Continue' })], true)
  await page.getByRole('button', { name: 'Continue' }).click()
  await checkAtEveryWidth(page, 'checkout-payment', h1(page), [
    page.getByRole('button', { name: /^Pay / }),
    page.getByRole('button', { name: 'Back to the order' }),
  ])
  await page.goto('/app/nuitrack/basket/checkout/subscriptions/pro/')
  await checkAtEveryWidth(page, 'subscription-checkout', h1(page), [page.getByRole('button', { name: 'Continue' })])

  // add funds: the dialog with its pay buttons
  await page.goto('/app/nuitrack/add-funds/?amount=50')
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  await checkAtEveryWidth(page, 'add-funds', dialog, [dialog.getByRole('button', { name: 'Pay by card' }), dialog.getByRole('button', { name: 'PayPal' })])
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // the payment documents: the invoice's Download in reach
  await page.goto('/app/payment-doc/')
  const paid = page.getByTestId('transaction-row').filter({ hasText: '-$3.28' })
  await checkAtEveryWidth(page, 'payment-documents', h1(page), [paid.getByRole('button', { name: /^Download invoice/ }), paid.getByText('-$3.28')], true)

  await page.goto('/app/account/')
  await checkAtEveryWidth(page, 'account', h1(page), [
    page.getByRole('button', { name: 'Save profile' }),
    page.getByRole('button', { name: 'Change password' }),
  ])
  await page.goto('/app/staff/custom-license/perpetual/')
  await checkAtEveryWidth(page, 'staff-form', h1(page), [page.getByRole('button', { name: 'Create' })])
})
