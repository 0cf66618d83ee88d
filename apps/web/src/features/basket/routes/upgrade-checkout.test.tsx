import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERRORS, type GroupView, type LicenseView, type ProfileResponse } from '@portal/domain'
import { fillBalanceStore } from '../../../lib/fill-balance.ts'
import { leave } from '../../../lib/leave.ts'
import { groupView, json, licenseView, mockApi, profile, renderApp, seededPrices, setLogged, signedInRoutes, type Call } from '../../../test/utils.tsx'

// these screens load the license or group, the prices and sometimes a cost before they show a
// price: on a loaded machine that takes more than the default second
configure({ asyncUtilTimeout: 4000 })

const withPrices = (balance = 12.5): ProfileResponse => ({ ...profile({ balance }), prices: seededPrices() })

/** A Face Machine trial (fmc_subscribe tagged FMC Trial), $49.00 a month once upgraded. */
const fmTrial = (over: Partial<LicenseView> = {}) =>
  licenseView({
    id: 21,
    type: 'face-machine',
    title: 'Lobby cameras',
    group: null,
    group_id: null,
    config: { product: 'fmc_subscribe', tag: 'FMC Trial' },
    is_trial: true,
    is_subscription: true,
    token: 'FMFM-1111-2222-3333',
    ...over,
  })
/** A Nuitrack Analytics trial (na_subscribe tagged NA Trial): priced by its upgrade-cost. */
const naTrial = (over: Partial<LicenseView> = {}) =>
  licenseView({
    id: 31,
    type: 'nuitrack-analytics',
    title: 'Store analytics',
    group: null,
    group_id: null,
    config: { product: 'na_subscribe', tag: 'NA Trial' },
    is_trial: true,
    is_subscription: true,
    ...over,
  })
/** A Nuitrack Pro perpetual license (old): Pro → AI at upgrade_nuitrack_pro's $99.90. */
const proLicense = (over: Partial<LicenseView> = {}) =>
  licenseView({ id: 5, title: 'Kiosk sensor', config: { product: 'old' }, upgradeable: { toAI: 'self' }, ...over })
/** A Nuitrack Pro group with 3 licenses still to generate. */
const proGroup = (over: Partial<GroupView> = {}) =>
  groupView({
    id: 12,
    title: 'Pro group #12',
    product: 'old',
    config: { product: 'old' },
    limit: 3,
    used_licenses: 1,
    total: 4,
    has_available_license: true,
    upgradeable: { toAI: 'self' },
    ...over,
  })

const total = () => screen.getByTestId('order-total').textContent
const pending = (url: string) => ({
  status: 'pending',
  order_id: 3,
  transaction_id: 3,
  amount: 49,
  payment: { provider: 'sandbox', provider_data: { session_id: 's1', url } },
})

/** Nothing of the basket's order step: no quantity stepper, no promo box. */
function expectNoBasketControls() {
  expect(screen.queryByRole('button', { name: 'One more' })).toBeNull()
  expect(screen.queryByRole('button', { name: 'One less' })).toBeNull()
  expect(screen.queryByRole('textbox', { name: /Quantity/ })).toBeNull()
  expect(screen.queryByRole('textbox', { name: 'Promo code' })).toBeNull()
}

beforeEach(() => {
  sessionStorage.clear()
  setLogged()
})
afterEach(() => {
  fillBalanceStore.close()
  vi.restoreAllMocks()
})

describe('upgrade checkout: what each route shows', () => {
  it('a Face Machine trial: the license, trial → paid, the monthly price, back to its info page', async () => {
    mockApi(signedInRoutes({ profile: withPrices(), licenses: [fmTrial()] }))
    renderApp('/app/face-machine/basket/checkout/upgrade/trial/21/')
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrade to Face Machine' })).toBeInTheDocument()
    expect(screen.getByText('Lobby cameras')).toBeInTheDocument()
    expect(screen.getByTestId('upgrade-key')).toHaveTextContent('FMFM-1111-2222-3333')
    expect(screen.getByTestId('upgrade-from-to')).toHaveTextContent('Face Machine trial → Face Machine')
    await waitFor(() => expect(screen.getByTestId('upgrade-price')).toHaveTextContent('$49.00 per month'))
    expect(total()).toBe('$49.00')
    expect(screen.getByRole('link', { name: /Back to the license/ })).toHaveAttribute('href', '/app/face-machine/dashboard/21/info/')
    expectNoBasketControls()
    expect(screen.queryByRole('textbox', { name: 'Licenses to upgrade' })).toBeNull()
  })

  it('a Nuitrack Analytics trial is priced by its upgrade-cost; below 0.001 it shows 20.00', async () => {
    const asked: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: withPrices(), licenses: [naTrial()] }),
      'GET /api/nuitrack-analytics/:id/upgrade-cost/': (c) => (asked.push(c), json(200, { amount: 0 })),
    })
    const view = renderApp('/app/nuitrack-analytics/basket/checkout/upgrade/trial/31/')
    await waitFor(() => expect(screen.getByTestId('upgrade-price')).toHaveTextContent('$20.00 per month'))
    expect(asked.map((c) => c.params.id)).toEqual(['31'])
    expect(screen.getByTestId('upgrade-from-to')).toHaveTextContent('Nuitrack Analytics trial → Nuitrack Analytics')
    expect(screen.getByRole('link', { name: /Back to the license/ })).toHaveAttribute('href', '/app/nuitrack-analytics/dashboard/31/info/')
    expectNoBasketControls()
    view.unmount()

    mockApi({
      ...signedInRoutes({ profile: withPrices(), licenses: [naTrial()] }),
      'GET /api/nuitrack-analytics/:id/upgrade-cost/': () => json(200, { amount: 35.5 }),
    })
    renderApp('/app/nuitrack-analytics/basket/checkout/upgrade/trial/31/')
    await waitFor(() => expect(screen.getByTestId('upgrade-price')).toHaveTextContent('$35.50 per month'))
    expect(total()).toBe('$35.50')
  })

  it('Nuitrack Pro → AI of one license: the upgrade price, Pro perpetual → AI perpetual', async () => {
    mockApi(signedInRoutes({ profile: withPrices(), licenses: [proLicense()] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade/pro/5/')
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrade to Nuitrack AI perpetual' })).toBeInTheDocument()
    expect(screen.getByTestId('upgrade-from-to')).toHaveTextContent('Nuitrack Pro perpetual → Nuitrack AI perpetual')
    await waitFor(() => expect(screen.getByTestId('upgrade-price')).toHaveTextContent('$99.90 per license'))
    expect(total()).toBe('$99.90')
    expect(screen.getByRole('link', { name: /Back to the license/ })).toHaveAttribute('href', '/app/nuitrack/dashboard/5/info/')
    expectNoBasketControls()
  })

  it('a group (upgrade-y): the number of licenses, 1 to the group limit, prices the total; back to its pre-info', async () => {
    mockApi(signedInRoutes({ profile: withPrices(1000), groups: [proGroup()] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    const count = await screen.findByRole('textbox', { name: 'Licenses to upgrade' })
    expect(screen.getByText('Pro group #12')).toBeInTheDocument()
    expect(screen.getByTestId('upgrade-from-to')).toHaveTextContent('Nuitrack Pro perpetual → Nuitrack AI perpetual')
    expect(screen.getByRole('link', { name: /Back to the group/ })).toHaveAttribute('href', '/app/nuitrack/dashboard/12/pre-info/')
    expectNoBasketControls()
    await waitFor(() => expect(total()).toBe('$99.90'))

    fireEvent.change(count, { target: { value: '3' } })
    await waitFor(() => expect(total()).toBe('$299.70'))
    expect(screen.getByRole('button', { name: 'Pay $299.70' })).toBeEnabled()

    // more than the group has: the error sits on the field and nothing can be paid
    fireEvent.change(count, { target: { value: '4' } })
    await waitFor(() => expect(count).toHaveAccessibleDescription(/Enter a number from 1 to 3\./))
    expect(count).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeDisabled()
    expect(screen.getByRole('complementary', { name: 'Order summary' })).toHaveTextContent('Enter how many licenses to upgrade.')

    fireEvent.change(count, { target: { value: '0' } })
    await waitFor(() => expect(count).toHaveAccessibleDescription(/Enter a number from 1 to 3\./))
    fireEvent.change(count, { target: { value: '' } })
    await waitFor(() => expect(count).toHaveAccessibleDescription(/Enter how many licenses to upgrade\./))
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeDisabled()

    fireEvent.change(count, { target: { value: '2' } })
    await waitFor(() => expect(total()).toBe('$199.80'))
    expect(count).not.toHaveAttribute('aria-invalid', 'true')
  })
})

describe('upgrade checkout: paying', () => {
  it('by card: POST with the return paths, then the browser goes to the provider checkout', async () => {
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    const sent: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: withPrices(0), licenses: [fmTrial()] }),
      'POST /api/license/:id/upgrade/': (c) => (sent.push(c), json(200, pending('/api/payments/sandbox/s1/'))),
    })
    renderApp('/app/face-machine/basket/checkout/upgrade/trial/21/')
    // the balance ($0) does not cover $49: off, with the top-up offer; the card is chosen
    await waitFor(() => expect(screen.getByRole('radio', { name: /From the balance/ })).toBeDisabled())
    expect(screen.getByRole('radio', { name: /By card/ })).toBeChecked()
    expect(screen.getByText('Your balance is short of $49.00 for this order.')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Pay $49.00' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox/s1/'))
    expect(sent.map((c) => [c.params.id, c.body])).toEqual([
      [
        '21',
        {
          payment_source: 'stripe',
          success_url: '/app/face-machine/license-purchase-success/?next=%2Fapp%2Fface-machine%2Fdashboard%2F21%2Finfo%2F',
          cancel_url: '/app/face-machine/basket/checkout/upgrade/trial/21/',
        },
      ],
    ])
  })

  it('a group by PayPal: the limit goes with the POST', async () => {
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    const sent: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: withPrices(0), groups: [proGroup()] }),
      'POST /api/group/:id/upgrade/': (c) => (sent.push(c), json(200, pending('https://paypal.example/approve/1'))),
    })
    renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    fireEvent.change(await screen.findByRole('textbox', { name: 'Licenses to upgrade' }), { target: { value: '2' } })
    fireEvent.click(screen.getByRole('radio', { name: 'With PayPal' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $199.80' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://paypal.example/approve/1'))
    expect(sent[0]!.params.id).toBe('12')
    expect(sent[0]!.body).toEqual({
      payment_source: 'paypal',
      limit: 2,
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/basket/checkout/upgrade-y/pro/12/',
    })
  })

  it('from the balance: paid at once, the success modal, then the license info page', async () => {
    const sent: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: withPrices(100), licenses: [proLicense()] }),
      'POST /api/license/:id/upgrade/': (c) => (sent.push(c), json(200, { status: 'paid', order_id: 8, transaction_id: 8, amount: 99.9, payment: null })),
    })
    const app = renderApp('/app/nuitrack/basket/checkout/upgrade/pro/5/')
    await waitFor(() => expect(screen.getByRole('radio', { name: /From the balance/ })).toBeChecked())
    expect(screen.getByText('Balance: $100.00')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Pay $99.90' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/license-purchase-success/'))
    expect(new URLSearchParams(app.location().search).get('next')).toBe('/app/nuitrack/dashboard/5/info/')
    expect(sent[0]!.body).toMatchObject({ payment_source: 'balance' })
    const dialog = await screen.findByRole('dialog', { name: 'Thank you for your purchase' }, { timeout: 5000 })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go to my licenses' }))
    // the modal's exit transition runs first: a loaded machine may take a while
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/5/info/'), { timeout: 5000 })
  })

  it('the balance is off when it does not cover the total (a group of 3 at $99.90 against $250)', async () => {
    mockApi(signedInRoutes({ profile: withPrices(250), groups: [proGroup()] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    const count = await screen.findByRole('textbox', { name: 'Licenses to upgrade' })
    await waitFor(() => expect(screen.getByRole('radio', { name: /From the balance/ })).toBeChecked())
    fireEvent.change(count, { target: { value: '3' } })
    await waitFor(() => expect(screen.getByRole('radio', { name: /From the balance/ })).toBeDisabled())
    expect(screen.getByRole('radio', { name: /By card/ })).toBeChecked()
    expect(screen.getByText('Your balance is short of $49.70 for this order.')).toBeInTheDocument()
  })

  it('the server answers license_on_hold: the license is being upgraded, no pay button, no error modal', async () => {
    mockApi({
      ...signedInRoutes({ profile: withPrices(0), licenses: [fmTrial()] }),
      'POST /api/license/:id/upgrade/': () => json(409, { error_code: ERRORS.license_on_hold.code, error: ERRORS.license_on_hold.message }),
    })
    renderApp('/app/face-machine/basket/checkout/upgrade/trial/21/')
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $49.00' }))
    const hold = await screen.findByTestId('upgrade-on-hold')
    expect(hold).toHaveTextContent('This license is being upgraded: it is on hold for about 15 minutes (up to 30)')
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(within(hold).getByRole('link', { name: 'Back to the license' })).toHaveAttribute('href', '/app/face-machine/dashboard/21/info/')
    // the hold ended (the license reads as not held): checking again gives the pay button back
    fireEvent.click(within(hold).getByRole('button', { name: 'Check again' }))
    expect(await screen.findByRole('button', { name: 'Pay $49.00' })).toBeInTheDocument()
  })

  it('insufficient funds (the balance moved): said in place, the card is chosen', async () => {
    mockApi({
      ...signedInRoutes({ profile: withPrices(100), licenses: [proLicense()] }),
      'POST /api/license/:id/upgrade/': () => json(409, { error_code: ERRORS.insufficient_funds.code, error: ERRORS.insufficient_funds.message }),
    })
    renderApp('/app/nuitrack/basket/checkout/upgrade/pro/5/')
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $99.90' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Insufficient funds on the balance')
    expect(screen.getByRole('radio', { name: /By card/ })).toBeChecked()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('upgrade checkout: licenses and groups that cannot be upgraded here', () => {
  it('a license already on hold shows the hold instead of the pay button', async () => {
    const held = fmTrial({ status: 2, license_status: 'holded', state: 'holded', held_until: new Date(Date.now() + 10 * 60_000).toISOString() })
    mockApi(signedInRoutes({ profile: withPrices(100), licenses: [held] }))
    renderApp('/app/face-machine/basket/checkout/upgrade/trial/21/')
    expect(await screen.findByTestId('upgrade-on-hold')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
    expect(screen.queryByRole('radio', { name: /By card/ })).toBeNull()
  })

  it('a group on hold (holded_limit) shows the hold', async () => {
    mockApi(signedInRoutes({ profile: withPrices(100), groups: [proGroup({ holded_limit: 2, held_until: new Date(Date.now() + 60_000).toISOString() })] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    expect(await screen.findByTestId('upgrade-on-hold')).toHaveTextContent('Licenses of this group are being upgraded')
    expect(screen.queryByRole('textbox', { name: 'Licenses to upgrade' })).toBeNull()
  })

  it('a license that is not upgradeable, or not this way, says so with the way back', async () => {
    // an AI license has nothing to upgrade to; a trial is not a Pro
    for (const [path, license] of [
      ['/app/nuitrack/basket/checkout/upgrade/pro/5/', licenseView({ id: 5 })],
      ['/app/face-machine/basket/checkout/upgrade/pro/21/', fmTrial()],
      ['/app/face-machine/basket/checkout/upgrade/trial/21/', fmTrial({ config: { product: 'fmc_subscribe', tag: 'FMC Trial', upgraded: true } })],
    ] as const) {
      mockApi(signedInRoutes({ profile: withPrices(100), licenses: [license] }))
      const view = renderApp(path)
      expect(await screen.findByText('This license cannot be upgraded this way.')).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
      expect(screen.getAllByRole('link', { name: /Back to the license/ })[0]).toHaveAttribute('href', `/app/${license.type}/dashboard/${license.id}/info/`)
      view.unmount()
    }
  })

  it('an upgrade done by support points to support', async () => {
    mockApi(signedInRoutes({ profile: withPrices(100), groups: [proGroup({ upgradeable: { toAI: 'bySupport' } })] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    expect(await screen.findByText(ERRORS.upgrade_by_support.message)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Contact support/ })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
  })

  it('a Pro license the server says is upgraded by support (a staff order) has no checkout either', async () => {
    mockApi(signedInRoutes({ profile: withPrices(100), licenses: [proLicense({ upgradeable: { toAI: 'bySupport' } })] }))
    renderApp('/app/nuitrack/basket/checkout/upgrade/pro/5/')
    expect(await screen.findByText(ERRORS.upgrade_by_support.message)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Contact support/ })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk&license_id=5')
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
  })

  it('a license of another platform goes to its own platform’s checkout', async () => {
    mockApi(signedInRoutes({ profile: withPrices(), licenses: [fmTrial()] }))
    const app = renderApp('/app/nuitrack-analytics/basket/checkout/upgrade/trial/21/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face-machine/basket/checkout/upgrade/trial/21/'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrade to Face Machine' })).toBeInTheDocument()
  })

  it('bad segments: a platform without upgrades, an unknown type or license type is a page not found', async () => {
    for (const path of [
      '/app/face/basket/checkout/upgrade/pro/5/',
      '/app/nuitrack/basket/checkout/upgrade-z/pro/5/',
      '/app/nuitrack/basket/checkout/upgrade/ai/5/',
      '/app/nowhere/basket/checkout/upgrade/pro/5/',
    ]) {
      mockApi(signedInRoutes({ profile: withPrices() }))
      const view = renderApp(path)
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
      view.unmount()
    }
  })

  it('a non-numeric id or an unknown license: the error dialog, then the dashboard', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const app = renderApp('/app/nuitrack/basket/checkout/upgrade/pro/abc/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
    expect(await screen.findByText('License not found')).toBeInTheDocument()
    app.unmount()

    mockApi(signedInRoutes({ profile: withPrices(), groups: [] }))
    const again = renderApp('/app/nuitrack/basket/checkout/upgrade-y/pro/77/')
    await waitFor(() => expect(again.location().pathname).toBe('/app/nuitrack/dashboard/'))
    expect(await screen.findByText('Group not found')).toBeInTheDocument()
  })
})
