import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { apiPost, confirmedAccount, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'

/** The license table: long titles, whole badges, the filters, and what a subscription's expiry says. */

// each test signs up, drives several screens and takes screenshots at two widths: room for a busy machine
test.describe.configure({ timeout: 120_000 })

/** A license made from the client's default group of `product`, through the API, with a title. */
async function generate(request: APIRequestContext, product: string, title: string): Promise<number> {
  const { groups } = (await (await request.get('/api/group/')).json()) as { groups: { id: number; product: string }[] }
  const group = groups.find((g) => g.product === product)!
  const res = await apiPost(request, `/api/group/${group.id}/new-license/`, { title })
  expect(res.ok(), await res.text()).toBe(true)
  const { licenses } = (await (await request.get('/api/license/')).json()) as { licenses: { id: number; title: string }[] }
  return licenses.find((l) => l.title === title)!.id
}

/**
 * The rectangle of `inner` lies inside the visible part of `outer` and inside the viewport, to a
 * pixel: a table scrolled to its end can stop a fraction of a pixel short (subpixel layout).
 */
async function expectWithin(page: Page, inner: Locator, outer: Locator) {
  const a = (await inner.boundingBox())!
  const b = (await outer.boundingBox())!
  const viewport = page.viewportSize()!
  expect(a.x).toBeGreaterThanOrEqual(b.x - 1)
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 1)
  expect(a.x + a.width).toBeLessThanOrEqual(viewport.width)
}

/** No element of the locator cuts its text: nothing scrolls inside it, and no ellipsis is drawn. */
async function expectWhole(badges: Locator) {
  const cut = await badges.evaluateAll((els) =>
    els
      .flatMap((el) => [el, ...Array.from(el.querySelectorAll('*'))])
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => el.textContent),
  )
  expect(cut).toEqual([])
}

// 68 characters, the length of titles customers gave their kiosks in the walkthrough
const LONG_TITLE = 'Reception kiosk, north lobby entrance, building B (second floor) #01'

test('a 68-character title at 1280 px keeps Key and Expires in view; badges whole; filters and expiry tell the truth', async ({ page }) => {
  expect(LONG_TITLE).toHaveLength(68)
  const client = await confirmedAccount(page.request)
  await portal('licenses:grant', client.email, 'nuitrack_subscribe', '2', '--os-type', '1')
  await portal('licenses:grant', client.email, 'nuitrack_ai_perpetual', '2')
  await signIn(page, client.email)
  const subId = await generate(page.request, 'nuitrack_subscribe', LONG_TITLE)
  await generate(page.request, 'nuitrack_ai_perpetual', 'Dance hall AI')

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/app/nuitrack/dashboard/')
  const table = page.getByTestId('license-table-scroll')
  const row = page.getByTestId('license-row').filter({ hasText: LONG_TITLE })
  await expect(row).toBeVisible()
  // the whole table fits at 1280 px: nothing to scroll, every Key and Expires cell inside it
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  for (const header of ['Key', 'Expires']) await expectWithin(page, page.getByRole('columnheader', { name: header }), table)
  const cells = row.getByRole('cell')
  await expectWithin(page, cells.nth(3), table)
  await expectWithin(page, cells.nth(4), table)
  // the full title is the link's name and shows on hover
  await expect(row.getByRole('link', { name: LONG_TITLE })).toHaveAttribute('title', LONG_TITLE)
  // badges never truncate
  await expect(page.getByTestId('status-badge').first()).toBeVisible()
  await expectWhole(page.getByTestId('status-badge'))
  for (const text of await page.getByTestId('status-badge').allTextContents()) expect(text).toMatch(/^(New|Active|Suspended|On hold|Paused)$/)
  // a subscription renews; it never "expires never"
  await expect(cells.nth(4)).toHaveText('Renews monthly')
  await expectAccessible(page, 'dashboard-long-title')
  await screenshots(page, 'dashboard-long-title')

  // narrower than the table: it scrolls sideways, and the columns are there to scroll to
  await page.setViewportSize({ width: 800, height: 900 })
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }))
  await expectWithin(page, page.getByRole('columnheader', { name: 'Expires' }), table)
  await expectWhole(page.getByTestId('status-badge'))
  await page.setViewportSize({ width: 1280, height: 800 })

  // the Perpetual filter holds AI perpetual (by the product's kind); Pro and AI does not
  await page.getByText('Perpetual', { exact: true }).click()
  await expect(page.getByRole('link', { name: 'Dance hall AI' })).toBeVisible()
  await expect(page.getByRole('link', { name: LONG_TITLE })).toHaveCount(0)
  await page.getByText('Pro and AI', { exact: true }).click()
  await expect(page.getByRole('link', { name: LONG_TITLE })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Dance hall AI' })).toHaveCount(0)

  // the info page: a subscription's expiry is its renewal, not "Never"
  await page.goto(`/app/nuitrack/dashboard/${subId}/info/`)
  const expires = page.getByText('Expires', { exact: true }).locator('xpath=..')
  await expect(expires).toContainText('Renews monthly')
  await expect(expires).not.toContainText('Never')
  await expectWhole(page.getByTestId('status-badge'))
  await screenshots(page, 'license-info-long-title')
})
