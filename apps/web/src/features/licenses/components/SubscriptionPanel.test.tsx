import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { notifications } from '@mantine/notifications'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ERRORS, SUPPORT_EMAIL, type LicenseView, type SubscriptionView } from '@portal/domain'
import { leave } from '../../../lib/leave.ts'
import {
  json,
  licenseView,
  mockApi,
  profile,
  renderApp,
  seededPrices,
  setLogged,
  signedInRoutes,
  type Routes,
  licenseListAnswer,
} from '../../../test/utils.tsx'

/** A renewing Nuitrack Pro subscription paid by card, as the API answers it. */
const sub = (over: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: 11,
  state: 'active',
  payment_source: 'stripe',
  wallet: false,
  cancel_at_period_end: false,
  failed_attempts: 0,
  next_attempt: '2026-12-22T12:00:00.000Z',
  renewal_price: 3.28,
  ...over,
})
const nuitrackSub = (over: Partial<LicenseView> = {}): LicenseView =>
  licenseView({
    id: 5,
    title: 'Kiosk',
    config: { product: 'nuitrack_online_subscription_monthly', online: { offline_timeout: 86_400 } },
    expire_date: '2026-12-22T12:00:00.000Z',
    activation_date: '2026-11-22T13:00:00.000Z',
    license_status: 'active',
    state: 'active',
    subscription_status: 'active',
    next_payment: '2026-12-22T12:00:00.000Z',
    is_subscription: true,
    lifetime: 'month',
    card_brand: 'visa',
    card_last4: '4242',
    subscription: sub(),
    ...over,
  })
/** A Face Machine subscription (a cloud one), not a trial. */
const cloudSub = (over: Partial<LicenseView> = {}): LicenseView =>
  nuitrackSub({
    type: 'face-machine',
    title: 'Lobby',
    group: 'Face Machine group #1',
    config: { product: 'fmc_subscribe', plan_id: 3 },
    ...over,
  })

const reactivated = (status: 'ok' | 'paid' | 'pending', license: LicenseView, url?: string) => ({
  status,
  transaction_id: status === 'ok' ? null : 77,
  amount: status === 'ok' ? null : 3.28,
  payment: url ? { provider: 'stripe', provider_data: { session_id: 'cs_1', url } } : null,
  license,
})

/** A license server for one license #5; `routes` add or replace answers. */
function serve(initial: LicenseView, routes: (set: (l: LicenseView) => LicenseView) => Routes = () => ({})) {
  let current = initial
  const set = (l: LicenseView) => (current = l)
  const calls = mockApi({
    ...signedInRoutes({ profile: { ...profile(), prices: seededPrices() } }),
    'GET /api/license/': (c) => licenseListAnswer([current], c.url),
    'GET /api/license/5/': () => json(200, current),
    'GET /api/face-machine/rates/': () => json(200, { plans: [] }),
    ...routes(set),
  })
  return {
    calls,
    posts: () => calls.filter((c) => c.method === 'POST'),
    gets: (url: string) => calls.filter((c) => c.method === 'GET' && c.url.split('?')[0] === url).length,
  }
}

const info = (platform = 'nuitrack') => `/app/${platform}/dashboard/5/info/`
const block = () => screen.findByRole('region', { name: 'Subscription' })
const field = (region: HTMLElement, label: string) => within(region).getByText(label).parentElement!

// the info screen reads the license, the profile, the groups and (Face Machine) the rates before it shows all: on a
// loaded machine that takes longer than the default second
configure({ asyncUtilTimeout: 5000 })

afterEach(() => {
  vi.restoreAllMocks()
  // a success notification of one test must not answer for the next
  notifications.clean()
})

describe('subscription block (section 4)', () => {
  it('active: status, next payment, renewal price and the card', async () => {
    setLogged()
    serve(nuitrackSub())
    renderApp(info())
    const b = await block()
    expect(within(b).getByTestId('subscription-status')).toHaveTextContent('Active')
    expect(field(b, 'Next payment')).toHaveTextContent('Dec 22, 2026')
    expect(field(b, 'Renewal price')).toHaveTextContent('$3.28 a month')
    expect(within(b).getByTestId('payment-method')).toHaveTextContent('Visa •••• 4242')
    expect(within(b).getByRole('button', { name: 'Cancel the subscription' })).toBeEnabled()
  })

  it('a 3-month Face SDK all-in-one states its real term and its price per term', async () => {
    setLogged()
    serve(
      nuitrackSub({
        type: 'face',
        title: 'All in one',
        config: { product: 'face_online_all_in_one', license_expire_delta: 7_776_000, online: { offline_timeout: 86_400 } },
        lifetime: 'month',
        subscription: sub({ renewal_price: 150 }),
      }),
    )
    renderApp(info('face'))
    const b = await block()
    expect(within(b).getByTestId('renewal-price')).toHaveTextContent('$150.00 every 3 months')
    expect(b).not.toHaveTextContent('a month')
    const details = screen.getByRole('region', { name: 'Details' })
    expect(within(details).getByTestId('license-term')).toHaveTextContent('3 months')
    expect(details).not.toHaveTextContent('Monthly')
  })

  it('a paid Analytics subscription filed with a trial tag still reads as paid: no trial copy, no trial actions, its next payment', async () => {
    setLogged()
    // what a paid seat made from a trial's group looked like: the tag, and a subscription that renews
    const paid = nuitrackSub({
      type: 'nuitrack-analytics',
      title: 'Cloud',
      config: { product: 'na_subscribe', plan_id: 4, tag: 'NA Trial', upgraded: false },
      is_trial: true,
    })
    const { calls } = serve(paid)
    renderApp(info('nuitrack-analytics'))
    const b = await block()
    expect(field(b, 'Next payment')).toHaveTextContent('Dec 22, 2026')
    expect(screen.queryByText('This trial has no end date.')).toBeNull()
    expect(screen.queryByRole('alert', { name: 'Trial' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Upgrade now' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Pause the trial' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Pause the subscription' })).toBeInTheDocument()
    expect(calls.filter((c) => c.url.includes('upgrade-cost'))).toEqual([])
  })

  it('names a PayPal e-mail, or the balance', async () => {
    setLogged()
    serve(nuitrackSub({ card_brand: null, card_last4: null, paypal_email: 'ann@example.com', subscription: sub({ payment_source: 'paypal', wallet: true }) }))
    const app = renderApp(info())
    expect(within(await block()).getByTestId('payment-method')).toHaveTextContent('PayPal (ann@example.com)')
    app.unmount()
    serve(nuitrackSub({ subscription: sub({ payment_source: 'balance' }) }))
    renderApp(info())
    expect(within(await block()).getByTestId('payment-method')).toHaveTextContent('Balance')
  })

  it('cancel asks first (Escape keeps it), then shows "Cancelled — active until" without a next payment; Reactivate undoes it', async () => {
    setLogged()
    const { posts } = serve(nuitrackSub(), (set) => ({
      'POST /api/license/5/cancel-subscription/': () => json(200, set(nuitrackSub({ subscription: sub({ cancel_at_period_end: true }) }))),
      'POST /api/license/5/reactivate-subscription/': () => json(200, reactivated('ok', set(nuitrackSub()))),
    }))
    renderApp(info())
    const user = userEvent.setup()
    const b = await block()
    await user.click(within(b).getByRole('button', { name: 'Cancel the subscription' }))
    let dialog = await screen.findByRole('dialog', { name: 'Cancel the subscription?' })
    expect(dialog).toHaveTextContent('It stays active until Dec 22, 2026, then ends.')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Keep the subscription' })).toHaveFocus())
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(posts()).toEqual([])

    await user.click(within(b).getByRole('button', { name: 'Cancel the subscription' }))
    dialog = await screen.findByRole('dialog', { name: 'Cancel the subscription?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the subscription' }))
    expect(await within(b).findByText('Cancelled — active until Dec 22, 2026')).toBeInTheDocument()
    expect(within(b).queryByText('Next payment')).toBeNull()
    expect(screen.queryByText('Next payment')).toBeNull()
    expect(within(b).queryByRole('button', { name: 'Cancel the subscription' })).toBeNull()

    await user.click(within(b).getByRole('button', { name: 'Reactivate' }))
    await waitFor(() => expect(within(b).getByTestId('subscription-status')).toHaveTextContent('Active'))
    expect(posts().map((c) => c.url)).toEqual(['/api/license/5/cancel-subscription/', '/api/license/5/reactivate-subscription/'])
    // undoing a cancellation names no payment source: nothing is charged
    expect(posts()[1]!.body).toEqual({ success_url: expect.stringMatching(/^\/app\//), cancel_url: '/app/nuitrack/dashboard/5/info/' })
  })

  it('past due: the red alert with the next attempt, and Pay now reactivates', async () => {
    setLogged()
    const late = nuitrackSub({ subscription: sub({ state: 'past_due', failed_attempts: 1, next_attempt: '2026-12-23T12:00:00.000Z' }) })
    const { posts } = serve(late, (set) => ({
      'POST /api/license/5/reactivate-subscription/': () => json(200, reactivated('paid', set(nuitrackSub({ expire_date: '2027-01-22T12:00:00.000Z' })))),
    }))
    renderApp(info())
    const alert = await screen.findByTestId('past-due')
    expect(alert).toHaveTextContent('The renewal payment failed on Dec 22, 2026. We will try again on Dec 23, 2026.')
    const user = userEvent.setup()
    await user.click(within(alert).getByRole('button', { name: 'Pay now' }))
    const dialog = await screen.findByRole('dialog', { name: 'Pay for the subscription' })
    expect(dialog).toHaveTextContent('$3.28')
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }))
    await waitFor(() => expect(screen.queryByTestId('past-due')).toBeNull())
    expect(posts().map((c) => c.url)).toEqual(['/api/license/5/reactivate-subscription/'])
    // paid by the subscription's own source: none named
    expect(posts()[0]!.body).not.toHaveProperty('payment_source')
  })

  it('awaiting authentication: the notice leads to the renewal-payment page, which shows what is due and pays by a checkout', async () => {
    setLogged()
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    const awaiting = nuitrackSub({
      expire_date: '2026-12-29T12:00:00.000Z',
      subscription: sub({ state: 'awaiting_authentication', next_attempt: '2026-12-29T12:00:00.000Z' }),
    })
    const due = {
      license_id: 5,
      title: awaiting.title,
      due: true,
      amount: 3.28,
      period_from: '2026-12-22T12:00:00.000Z',
      period_to: '2027-01-21T12:00:00.000Z',
      pay_by: '2026-12-29T12:00:00.000Z',
      expire_date: '2026-12-29T12:00:00.000Z',
      subscription_state: 'awaiting_authentication',
    }
    const { posts } = serve(awaiting, () => ({
      'GET /api/license/5/renewal-payment/': () => json(200, due),
      'POST /api/license/5/renewal-payment/': () =>
        json(200, {
          transaction_id: 77,
          amount: 3.28,
          payment: { provider: 'stripe', provider_data: { session_id: 'cs_1', url: 'https://checkout.example/cs_1' } },
        }),
    }))
    renderApp(info())
    const alert = await screen.findByTestId('awaiting-authentication')
    expect(within(await block()).getByTestId('subscription-status')).toHaveTextContent('Payment to confirm')
    expect(alert).toHaveTextContent('The license keeps working until Dec 29, 2026')
    const user = userEvent.setup()
    await user.click(within(alert).getByRole('link', { name: 'Confirm the payment' }))
    expect(await screen.findByRole('heading', { name: 'Renewal payment' })).toBeInTheDocument()
    expect(screen.getByTestId('renewal-amount')).toHaveTextContent('$3.28')
    expect(screen.getByTestId('renewal-period')).toHaveTextContent('Dec 22, 2026 to Jan 21, 2027')
    expect(screen.getByTestId('renewal-pay-by')).toHaveTextContent('Dec 29, 2026')
    await user.click(screen.getByRole('button', { name: 'Pay $3.28' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.example/cs_1'))
    expect(posts()[0]!.body).toEqual({
      success_url: '/app/nuitrack/dashboard/5/renewal-payment/?paid',
      cancel_url: '/app/nuitrack/dashboard/5/renewal-payment/',
    })
  })

  it('stopped (status 1): the stopped notice resumes by paying, and a checkout answer sends the browser there', async () => {
    setLogged()
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    const stopped = nuitrackSub({ status: 1, license_status: 'suspended', state: 'suspended', subscription: sub({ state: 'stopped', failed_attempts: 3 }) })
    const { posts } = serve(stopped, () => ({
      'POST /api/license/5/reactivate-subscription/': () => json(200, reactivated('pending', stopped, 'https://checkout.example/cs_1')),
    }))
    renderApp(info())
    const b = await block()
    expect(within(b).getByTestId('subscription-status')).toHaveTextContent('Stopped')
    expect(b).toHaveTextContent('The renewal payments failed, so the subscription has stopped.')
    const user = userEvent.setup()
    await user.click(within(b).getByRole('button', { name: 'Resume the subscription' }))
    const dialog = await screen.findByRole('dialog', { name: 'Pay for the subscription' })
    // PayPal is no choice: the server renews no wallet subscription from the portal
    expect(within(dialog).queryByRole('radio', { name: 'PayPal' })).toBeNull()
    await user.click(within(dialog).getByRole('radio', { name: 'Card' }))
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.example/cs_1'))
    expect(posts()[0]!.body).toMatchObject({ payment_source: 'stripe' })
  })

  it('suspended because its payment was taken back: no renewal to pay, the reason above, no action in the block', async () => {
    setLogged()
    const refunded = nuitrackSub({
      status: 1,
      license_status: 'suspended',
      state: 'suspended',
      suspended_reason: 'payment refunded (CN-000004): ordered twice',
      subscription: sub({ state: 'stopped' }),
    })
    serve(refunded, () => ({}))
    renderApp(info())
    const b = await block()
    expect(within(b).getByTestId('subscription-status')).toHaveTextContent('Suspended')
    expect(within(b).getByTestId('subscription-taken-back')).toHaveTextContent('Its payment was taken back, so it does not renew.')
    expect(within(b).queryByRole('button')).toBeNull()
    expect(screen.getByTestId('suspended-banner')).toHaveTextContent('payment refunded (CN-000004): ordered twice')
  })

  it('cancelled (not cloud): the expired notice; Renew reactivates with the chosen source; paid refetches the license and groups', async () => {
    setLogged()
    const ended = nuitrackSub({ subscription_status: 'cancelled', license_status: 'suspended', state: 'suspended', subscription: sub({ state: 'ended' }) })
    const { posts, gets } = serve(ended, (set) => ({
      'POST /api/license/5/reactivate-subscription/': () => json(200, reactivated('paid', set(nuitrackSub()))),
    }))
    renderApp(info())
    const b = await block()
    expect(b).toHaveTextContent('The license has expired')
    await waitFor(() => expect(gets('/api/group/')).toBeGreaterThan(0))
    const before = { license: gets('/api/license/5/'), groups: gets('/api/group/') }
    const user = userEvent.setup()
    await user.click(within(b).getByRole('button', { name: 'Renew' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate the subscription' })
    await user.click(within(dialog).getByRole('radio', { name: 'Balance' }))
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }))
    await waitFor(() => expect(within(b).getByTestId('subscription-status')).toHaveTextContent('Active'))
    expect(posts()[0]!.body).toMatchObject({ payment_source: 'balance' })
    await waitFor(() => expect(gets('/api/license/5/')).toBeGreaterThan(before.license))
    await waitFor(() => expect(gets('/api/group/')).toBeGreaterThan(before.groups))
    expect(await screen.findByText('Subscription reactivated')).toBeInTheDocument()
  })

  it('cancelled cloud: Renew asks for the workspace; 23504d45 offers Reactivate, which pays', async () => {
    setLogged()
    const ended = cloudSub({ subscription_status: 'cancelled', license_status: 'suspended', state: 'suspended', subscription: sub({ state: 'ended' }) })
    const { posts } = serve(ended, (set) => ({
      'POST /api/facemachine/5/activate-workspace/': () => json(400, { error_code: ERRORS.license_status.code, error: ERRORS.license_status.message }),
      'POST /api/license/5/reactivate-subscription/': () => json(200, reactivated('paid', set(cloudSub()))),
    }))
    renderApp(info('face-machine'))
    const user = userEvent.setup()
    await user.click(within(await block()).getByRole('button', { name: 'Renew' }))
    const confirm = await screen.findByRole('dialog', { name: 'Renew the subscription?' })
    await user.click(within(confirm).getByRole('button', { name: 'Renew' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate the subscription' })
    // the handled code opens no error modal
    expect(screen.queryByRole('dialog', { name: /error/i })).toBeNull()
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(posts().map((c) => c.url)).toEqual(['/api/facemachine/5/activate-workspace/', '/api/license/5/reactivate-subscription/'])
  })

  it('cancelled cloud paid by a wallet: Reactivate is disabled and the unimplemented-renewal message shows', async () => {
    setLogged()
    const ended = cloudSub({
      type: 'nuitrack-analytics',
      config: { product: 'na_subscribe', plan_id: 4 },
      subscription_status: 'cancelled',
      license_status: 'suspended',
      state: 'suspended',
      card_last4: null,
      paypal_email: 'ann@example.com',
      subscription: sub({ state: 'ended', payment_source: 'paypal', wallet: true }),
    })
    const { posts } = serve(ended, () => ({
      'POST /api/nuitrack-analytics/5/activate-workspace/': () => json(400, { error_code: ERRORS.license_status.code, error: ERRORS.license_status.message }),
    }))
    renderApp(info('nuitrack-analytics'))
    const user = userEvent.setup()
    await user.click(within(await block()).getByRole('button', { name: 'Renew' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Renew the subscription?' })).getByRole('button', { name: 'Renew' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate the subscription' })
    expect(dialog).toHaveTextContent(ERRORS.wallet_renewal_unavailable.message)
    expect(within(dialog).getByRole('button', { name: 'Reactivate' })).toBeDisabled()
    expect(posts().map((c) => c.url)).toEqual(['/api/nuitrack-analytics/5/activate-workspace/'])
  })

  it('a past-due wallet subscription: Pay now is disabled in the dialog, with the unimplemented-renewal message', async () => {
    setLogged()
    const { posts } = serve(
      nuitrackSub({
        card_last4: null,
        paypal_email: 'ann@example.com',
        subscription: sub({ state: 'past_due', failed_attempts: 1, payment_source: 'paypal', wallet: true }),
      }),
    )
    renderApp(info())
    const user = userEvent.setup()
    await user.click(within(await screen.findByTestId('past-due')).getByRole('button', { name: 'Pay now' }))
    const dialog = await screen.findByRole('dialog', { name: 'Pay for the subscription' })
    expect(dialog).toHaveTextContent(ERRORS.wallet_renewal_unavailable.message)
    expect(within(dialog).getByRole('button', { name: 'Pay now' })).toBeDisabled()
    expect(posts()).toEqual([])
  })

  it('a reactivation refused as subscription_cancelled says so in the dialog, without the error modal', async () => {
    setLogged()
    const ended = nuitrackSub({ subscription_status: 'cancelled', license_status: 'suspended', state: 'suspended', subscription: sub({ state: 'ended' }) })
    serve(ended, () => ({
      'POST /api/license/5/reactivate-subscription/': () =>
        json(400, { error_code: ERRORS.subscription_cancelled.code, error: ERRORS.subscription_cancelled.message }),
    }))
    renderApp(info())
    const user = userEvent.setup()
    await user.click(within(await block()).getByRole('button', { name: 'Renew' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate the subscription' })
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Sorry, something went wrong. It seems like the subscription has been canceled and can't be renewed.",
    )
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it('a license that does not renew has no subscription block', async () => {
    setLogged()
    serve(licenseView({ id: 5 }))
    renderApp(info())
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('region', { name: 'Subscription' })).toBeNull()
  })
})

describe('on hold (section 4)', () => {
  it('names until when, and disables every action: title, revoke, cancel, upgrade, activation, device release', async () => {
    setLogged()
    const held = nuitrackSub({
      status: 2,
      license_status: 'holded',
      state: 'holded',
      held_until: '2026-11-23T12:30:00.000Z',
      config: { product: 'nuitrack_online', online: { offline_timeout: 86_400 } },
      upgradeable: { toAI: 'self' },
      activations: [
        {
          id: 1,
          kind: 'online',
          name: 'Desk PC',
          signature_properties: { serial: 'S1', sensor_name: 'Astra', reg: null },
          fingerprint: 'fp',
          first_seen: '2026-11-22T13:00:00.000Z',
          last_seen: null,
        },
      ],
    })
    serve(held)
    renderApp(info())
    expect(await screen.findByText(/is on hold until Nov 23, 2026/)).toBeInTheDocument()
    const b = await block()
    expect(within(b).getByTestId('subscription-status')).toHaveTextContent('On hold')
    expect(within(b).getByRole('button', { name: 'Cancel the subscription' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Edit title' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Upgrade to AI' })).toBeDisabled()
    expect(screen.queryByRole('link', { name: 'Upgrade to AI' })).toBeNull()
    // whatever else the screen offers (device release, activation): nothing but copying the key is enabled
    const main = screen.getByRole('main')
    const enabled = within(main)
      .getAllByRole('button')
      .filter((btn) => !(btn as HTMLButtonElement).disabled && btn.getAttribute('data-disabled') === null)
      .map((btn) => btn.textContent)
    expect(enabled).toEqual(['Copy'])
  })

  it('an offline license on hold: the activation panel is disabled too', async () => {
    setLogged()
    serve(licenseView({ id: 5, status: 2, license_status: 'holded', state: 'holded', held_until: '2026-11-23T12:30:00.000Z' }))
    renderApp(info())
    await screen.findByRole('region', { name: 'Activation' })
    const main = screen.getByRole('main')
    const enabled = within(main)
      .getAllByRole('button')
      .filter((btn) => !(btn as HTMLButtonElement).disabled && btn.getAttribute('data-disabled') === null)
      .map((btn) => btn.textContent)
    expect(enabled).toEqual(['Copy'])
  })
})

/** A Face Machine or Analytics trial. */
const trial = (platform: 'face-machine' | 'nuitrack-analytics', over: Partial<LicenseView> = {}): LicenseView =>
  licenseView({
    id: 5,
    type: platform,
    title: 'Trial',
    config: platform === 'face-machine' ? { product: 'fmc_subscribe', tag: 'FMC Trial', plan_id: 3 } : { product: 'na_subscribe', tag: 'NA Trial', plan_id: 4 },
    expire_date: new Date(Date.now() + 10 * 86_400_000).toISOString(),
    is_trial: true,
    is_subscription: true,
    ...over,
  })

describe('trials (section 4)', () => {
  it('Upgrade now leads to the trial-upgrade checkout', async () => {
    setLogged()
    serve(trial('face-machine'))
    renderApp(info('face-machine'))
    const link = await screen.findByRole('link', { name: 'Upgrade now' })
    expect(link).toHaveAttribute('href', '/app/face-machine/basket/checkout/upgrade/trial/5/')
  })

  it('Upgrade now is disabled while on hold', async () => {
    setLogged()
    serve(trial('face-machine', { status: 2, license_status: 'holded', state: 'holded', held_until: '2026-11-23T12:30:00.000Z' }))
    renderApp(info('face-machine'))
    expect(await screen.findByRole('button', { name: 'Upgrade now' })).toBeDisabled()
    expect(screen.queryByRole('link', { name: 'Upgrade now' })).toBeNull()
  })

  it('an Analytics trial names its upgrade cost: 20.00 below 0.001', async () => {
    setLogged()
    serve(trial('nuitrack-analytics'), () => ({ 'GET /api/nuitrack-analytics/5/upgrade-cost/': () => json(200, { amount: 0.0004 }) }))
    const app = renderApp(info('nuitrack-analytics'))
    expect(await screen.findByTestId('upgrade-cost')).toHaveTextContent('Upgrading costs $20.00.')
    expect(screen.getByRole('link', { name: 'Upgrade now' })).toHaveAttribute('href', '/app/nuitrack-analytics/basket/checkout/upgrade/trial/5/')
    app.unmount()
    serve(trial('nuitrack-analytics'), () => ({ 'GET /api/nuitrack-analytics/5/upgrade-cost/': () => json(200, { amount: 35.5 }) }))
    renderApp(info('nuitrack-analytics'))
    expect(await screen.findByTestId('upgrade-cost')).toHaveTextContent('Upgrading costs $35.50.')
  })

  it('a paid Analytics subscription, paused or not, never asks for a trial upgrade cost (the server answers 400 to that)', async () => {
    setLogged()
    const paid = trial('nuitrack-analytics', { is_trial: false, title: 'Cloud', config: { product: 'na_subscribe', plan_id: 4 } })
    for (const license of [paid, { ...paid, state: 'paused' as const, config: { ...paid.config, paused: true }, paused_at: '2026-11-20T12:00:00.000Z' }]) {
      const { calls } = serve(license)
      const app = renderApp(info('nuitrack-analytics'))
      await screen.findByRole('heading', { level: 1, name: 'Cloud' })
      expect(screen.queryByRole('link', { name: 'Upgrade now' })).toBeNull()
      expect(calls.filter((c) => c.url.includes('upgrade-cost'))).toEqual([])
      app.unmount()
    }
  })

  it('a paused trial says when its data is erased, or that it was', async () => {
    setLogged()
    const paused = {
      config: { product: 'fmc_subscribe', tag: 'FMC Trial', paused: true, plan_id: 3 },
      state: 'paused' as const,
      paused_at: '2026-11-20T12:00:00.000Z',
    }
    serve(trial('face-machine', { ...paused, data_erase_date: '2026-12-20T12:00:00.000Z' }))
    const app = renderApp(info('face-machine'))
    expect(await screen.findByTestId('erase-note')).toHaveTextContent('Its data will be erased on Dec 20, 2026 unless you resume it.')
    app.unmount()
    serve(trial('face-machine', { ...paused, data_erase_date: '2026-12-20T12:00:00.000Z', data_erased_at: '2026-12-20T12:05:00.000Z' }))
    renderApp(info('face-machine'))
    expect(await screen.findByTestId('erase-note')).toHaveTextContent('Its data was erased on Dec 20, 2026.')
    expect(screen.getByTestId('paused-banner')).not.toHaveTextContent('unless you resume it')
  })
})

describe('Nuitrack Pro to AI (section 4)', () => {
  const pro = (how: 'self' | 'bySupport') =>
    licenseView({ id: 5, config: { product: 'nuitrack_online', online: { offline_timeout: 86_400 } }, upgradeable: { toAI: how } })

  it('self: an Upgrade to AI button to the Pro upgrade checkout, with its price', async () => {
    setLogged()
    serve(pro('self'))
    renderApp(info())
    const panel = await screen.findByRole('region', { name: 'Upgrade to Nuitrack AI' })
    expect(within(panel).getByRole('link', { name: 'Upgrade to AI' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/upgrade/pro/5/')
    expect(await within(panel).findByTestId('upgrade-cost')).toHaveTextContent('$99.90')
  })

  it('bySupport: a mail to support with the cost text, and no checkout', async () => {
    setLogged()
    serve(pro('bySupport'))
    renderApp(info())
    const panel = await screen.findByRole('region', { name: 'Upgrade to Nuitrack AI' })
    expect(within(panel).queryByRole('link', { name: 'Upgrade to AI' })).toBeNull()
    const mail = within(panel).getByRole('link', { name: `write to ${SUPPORT_EMAIL}` })
    expect(mail.getAttribute('href')).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=`))
    expect(decodeURIComponent(mail.getAttribute('href')!)).toContain('AAAA-BBBB-CCCC-DDDD')
    expect(await within(panel).findByTestId('upgrade-cost')).toHaveTextContent('The upgrade to Nuitrack AI costs $99.90.')
  })

  it('a license without the upgrade shows none', async () => {
    setLogged()
    serve(licenseView({ id: 5 }))
    renderApp(info())
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('region', { name: 'Upgrade to Nuitrack AI' })).toBeNull()
  })
})

describe('Face Machine plan (sections 3 and 9)', () => {
  const plan = {
    plan_id: 3,
    title: 'Face Machine Standard',
    transactions: { per_second: 5, per_month: null },
    samples: { per_workspace: 10_000 },
    streaming_video_processing_minutes: 'infinite',
    archived_video_processing_minutes: 60 * 24 * 5,
    events_retention_period_seconds: 90 * 86_400,
  }

  it("shows the license's plan by the display rules, and the per-channel price", async () => {
    setLogged()
    serve(cloudSub({ config: { product: 'fmc_subscribe', plan_id: 3, paid_channels: 3 } }), () => ({
      'GET /api/face-machine/rates/': () => json(200, { plans: [{ ...plan, plan_id: 9, title: 'Other' }, plan] }),
    }))
    renderApp(info('face-machine'))
    const panel = await screen.findByRole('region', { name: 'Plan' })
    expect(await within(panel).findByTestId('plan-name')).toHaveTextContent('Face Machine Standard')
    const limits = within(panel).getByTestId('plan-limits')
    expect(field(limits, 'Requests per second')).toHaveTextContent('5')
    expect(field(limits, 'Requests per month')).toHaveTextContent('Unlimited')
    expect(field(limits, 'Face storage')).toHaveTextContent('10,000')
    expect(field(limits, 'Streaming video processing')).toHaveTextContent('Unlimited')
    expect(field(limits, 'Archived video processing')).toHaveTextContent('5 days')
    expect(field(limits, 'Events retention')).toHaveTextContent('3 months')
    const price = await within(panel).findByTestId('channel-price')
    expect(field(price, 'Price per channel')).toHaveTextContent('$49.00 a month')
    expect(field(price, 'Additional devices')).toHaveTextContent('2 × $49.00 = $98.00')
    expect(field(price, 'Total')).toHaveTextContent('$147.00 a month')
  })

  it('a plan the rates do not list shows the default configuration', async () => {
    setLogged()
    serve(cloudSub({ config: { product: 'fmc_subscribe', plan_id: 3 } }), () => ({ 'GET /api/face-machine/rates/': () => json(200, { plans: [] }) }))
    renderApp(info('face-machine'))
    const panel = await screen.findByRole('region', { name: 'Plan' })
    expect(await within(panel).findByTestId('plan-name')).toHaveTextContent('Default configuration')
    const limits = within(panel).getByTestId('plan-limits')
    expect(field(limits, 'Key')).toHaveTextContent('Online')
    expect(field(limits, 'Requests per second')).toHaveTextContent('1')
    expect(field(limits, 'Face storage')).toHaveTextContent('10,000')
    expect(field(limits, 'Channels')).toHaveTextContent('Unlimited')
    expect(field(limits, 'Processing functions')).toHaveTextContent('Unlimited')
    expect(field(limits, 'Video')).toHaveTextContent('Streaming and archived')
    // one channel: no additional devices
    expect(field(within(panel).getByTestId('channel-price'), 'Additional devices')).toHaveTextContent('0 × $49.00 = $0.00')
  })

  it('the service being unavailable shows the default configuration, without the error modal', async () => {
    setLogged()
    serve(cloudSub(), () => ({
      'GET /api/face-machine/rates/': () => json(503, { error_code: ERRORS.face_machine_unavailable.code, error: ERRORS.face_machine_unavailable.message }),
    }))
    renderApp(info('face-machine'))
    const panel = await screen.findByRole('region', { name: 'Plan' })
    expect(await within(panel).findByText(/did not answer/)).toBeInTheDocument()
    expect(within(panel).getByTestId('plan-name')).toHaveTextContent('Default configuration')
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('accessibility (axe in the DOM; contrast is checked by the e2e axe run in a real browser)', () => {
  const serious = async () => {
    const axe = (await import('axe-core')).default
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } })
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  }

  it('the subscription block, the plan and the renew dialog have labels, names and headings', async () => {
    setLogged()
    const late = cloudSub({ config: { product: 'fmc_subscribe', plan_id: 3, paid_channels: 2 }, subscription: sub({ state: 'past_due', failed_attempts: 1 }) })
    serve(late)
    renderApp(info('face-machine'))
    await screen.findByTestId('past-due')
    await screen.findByTestId('channel-price')
    expect(await serious()).toEqual([])
    const user = userEvent.setup()
    await user.click(within(screen.getByTestId('past-due')).getByRole('button', { name: 'Pay now' }))
    await screen.findByRole('dialog', { name: 'Pay for the subscription' })
    expect(await serious()).toEqual([])
  })
})
