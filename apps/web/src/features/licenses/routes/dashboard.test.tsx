import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { GroupView, LicenseView, ProfileResponse } from '@portal/domain'
import { fillBalanceStore } from '../../../lib/fill-balance.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { groupView, json, licenseView, mockApi, profile, renderApp, seededPrices, setLogged, signedInRoutes } from '../../../test/utils.tsx'

afterEach(() => fillBalanceStore.close())

const rowTitles = () => screen.getAllByTestId('license-row').map((r) => within(r).getAllByRole('cell')[0]!.textContent)

describe('dashboard', () => {
  it("lists the platform's licenses with status and key, group slots first, and a row opens the license", async () => {
    setLogged()
    mockApi(
      signedInRoutes({
        licenses: [
          licenseView({ id: 1, title: 'Kiosk', state: 'active', license_status: 'active', token: 'KKKK-1111' }),
          licenseView({ id: 2, title: 'Lab', token: 'LLLL-2222' }),
          licenseView({ id: 3, type: 'face', title: 'A face license', config: { product: 'face_offline_perpetual' } }),
        ],
        groups: [groupView({ id: 9, title: 'Nuitrack group #9', limit: 2, total: 3 })],
      }),
    )
    const app = renderApp('/app/nuitrack/dashboard/')
    const table = await screen.findByRole('table')
    expect(rowTitles()).toEqual(['Nuitrack group #9: 2 to generate', 'Kiosk', 'Lab'])
    const kiosk = screen.getAllByTestId('license-row')[1]!
    expect(within(kiosk).getByTestId('status-badge')).toHaveTextContent('Active')
    expect(within(kiosk).getByText('KKKK-1111')).toBeInTheDocument()
    expect(within(table).queryByText('A face license')).toBeNull()

    const available = screen.getByRole('region', { name: 'Available to generate' })
    expect(available).toHaveTextContent('2 of 3 licenses not generated yet')
    expect(within(available).getByRole('link', { name: 'Generate a key' })).toHaveAttribute('href', '/app/nuitrack/dashboard/9/pre-info/')

    await userEvent.setup().click(screen.getByRole('link', { name: 'Lab' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/2/info/'))
  })

  it('the status tabs count and filter the rows', async () => {
    setLogged()
    mockApi(
      signedInRoutes({
        licenses: [
          licenseView({ id: 1, title: 'Kiosk', state: 'active', license_status: 'active' }),
          licenseView({ id: 2, title: 'Lab' }),
          licenseView({ id: 4, title: 'Spare' }),
        ],
      }),
    )
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('table')
    expect(screen.getByRole('tab', { name: 'All (3)' })).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('tab', { name: 'New (2)' }))
    expect(rowTitles()).toEqual(['Lab', 'Spare'])
    expect(screen.getByText('Showing 2 of 2')).toBeInTheDocument()
  })

  it('without licenses shows the first steps; starting the trial creates it, the table shows it and the steps reach success', async () => {
    setLogged()
    let licenses: LicenseView[] = []
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/license/': () => json(200, { licenses }),
      'POST /api/resource/create/': () => {
        licenses = [licenseView({ id: 11, title: 'Nuitrack trial', config: { product: 'nuitrack_trial' }, is_trial: true })]
        return json(200, { licenses })
      },
    })
    renderApp('/app/nuitrack/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    expect(screen.getByText('You have no licenses yet')).toBeInTheDocument()
    await userEvent.setup().click(within(steps).getByRole('button', { name: 'Start the free Nuitrack trial' }))
    expect(await screen.findByRole('link', { name: 'Nuitrack trial' })).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ count: 1, config: { product: 'nuitrack_trial', tag: null } })
    // the trial counts as getting a license: the block stays, at its success step
    await waitFor(() => expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'success'))
    expect(within(steps).getByRole('link', { name: /documentation/ })).toHaveAttribute('href', '/external_resource/link/nuitrack_docs/')
  })

  it('hiding the first steps is remembered, and the empty table offers them again', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/nuitrack/dashboard/')
    const user = userEvent.setup()
    const steps = await screen.findByRole('region', { name: 'First steps' })
    await user.click(within(steps).getByRole('button', { name: 'Hide' }))
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Show the first steps' }))
    expect(await screen.findByRole('region', { name: 'First steps' })).toBeInTheDocument()
  })

  it('hiding is remembered for the session: a new visit to the dashboard does not show the block', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const first = renderApp('/app/nuitrack/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    await userEvent.setup().click(within(steps).getByRole('button', { name: 'Hide' }))
    expect(sessionStorage.getItem('portal.first-steps.ann@example.com.nuitrack')).toBe('hidden')
    first.unmount()
    renderApp('/app/nuitrack/dashboard/')
    expect(await screen.findByText('You have no licenses yet')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
  })

  it('is hidden for a client who already had licenses on first opening the dashboard, even when the table later empties', async () => {
    setLogged()
    let licenses = [licenseView({ id: 1, title: 'Kiosk' })]
    mockApi({ ...signedInRoutes(), 'GET /api/license/': () => json(200, { licenses }) })
    const app = renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('table')
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
    await waitFor(() => expect(sessionStorage.getItem('portal.first-steps.ann@example.com.nuitrack')).toBe('had-licenses'))
    licenses = []
    await app.queryClient.invalidateQueries({ queryKey: ['licenses'] })
    expect(await screen.findByText('You have no licenses yet')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
    // the empty table still offers them
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show the first steps' }))
    expect(await screen.findByRole('region', { name: 'First steps' })).toBeInTheDocument()
  })

  it('nuitrack: the buy step links to the basket; a purchase (licenses refetched) moves it to success, and Done hides it for the session', async () => {
    setLogged()
    let groups: GroupView[] = []
    mockApi({ ...signedInRoutes({ profile: { ...profile(), prices: seededPrices() } }), 'GET /api/group/': () => json(200, { groups }) })
    const app = renderApp('/app/nuitrack/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'buy')
    expect(within(steps).getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/nuitrack/basket/')
    expect(within(steps).getByRole('button', { name: 'Start the free Nuitrack trial' })).toBeInTheDocument()
    // the empty table points to the basket too, keeping the support link
    expect(screen.getByRole('link', { name: 'basket' })).toHaveAttribute('href', '/app/nuitrack/basket/')
    expect(screen.getByRole('link', { name: /contact support/ })).toBeInTheDocument()

    // what the purchase-success modal does on close: groups and licenses are refetched
    groups = [groupView({ id: 9, title: 'Nuitrack group #9', limit: 1, total: 1 })]
    await app.queryClient.invalidateQueries({ queryKey: ['groups'] })
    await waitFor(() => expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'success'))
    expect(within(steps).getByText(/You're set/)).toBeInTheDocument()
    await userEvent.setup().click(within(steps).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
    expect(sessionStorage.getItem('portal.first-steps.ann@example.com.nuitrack')).toBe('hidden')
  })

  it('face: the fill step opens the fill-balance modal with the shortfall to the plan price, and advances when the balance reaches it', async () => {
    setLogged()
    let client: ProfileResponse = { ...profile({ balance: 12.5 }), prices: seededPrices() }
    mockApi({ ...signedInRoutes(), 'GET /api/client/': () => json(200, client) })
    const app = renderApp('/app/face/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'fill')
    // the cheapest Face SDK plan is the $30.00 monthly subscription
    expect(within(steps).getByText(/starts at \$30\.00 and your balance is \$12\.50: add \$17\.50 or more/)).toBeInTheDocument()
    await userEvent.setup().click(within(steps).getByRole('button', { name: 'Add funds' }))
    expect(fillBalanceStore.get()).toEqual({ shortfallCents: 1750 })
    expect(await screen.findByRole('dialog', { name: 'Add funds' })).toBeInTheDocument()
    fillBalanceStore.close()

    // a top-up refetches the profile: at $30.00 the fill step is done and buy is next
    client = { ...client, client_info: { ...client.client_info, balance: 30 } }
    await app.queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
    await waitFor(() => expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'buy'))
    expect(within(steps).getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/face/basket/')
    expect(within(steps).queryByRole('button', { name: /trial/ })).toBeNull()
  })

  it('face: Skip goes to the buy step and is remembered for the session', async () => {
    setLogged()
    mockApi(signedInRoutes({ profile: { ...profile({ balance: 0 }), prices: seededPrices() } }))
    const first = renderApp('/app/face/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    await userEvent.setup().click(within(steps).getByRole('button', { name: 'Skip' }))
    expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'buy')
    first.unmount()
    renderApp('/app/face/dashboard/')
    const again = await screen.findByRole('region', { name: 'First steps' })
    expect(within(again).getByTestId('first-step')).toHaveAttribute('data-step', 'buy')
  })

  it('nuitrack-analytics: the trial step, then fill (no skip) to the sold tier, then success', async () => {
    setLogged()
    let licenses: LicenseView[] = []
    let client: ProfileResponse = { ...profile({ balance: 5 }), prices: seededPrices() }
    mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, client),
      'GET /api/license/': () => json(200, { licenses }),
      'POST /api/resource/create/': () => {
        licenses = [licenseView({ id: 12, type: 'nuitrack-analytics', title: 'Analytics trial', config: { product: 'na_subscribe' }, is_trial: true })]
        return json(200, { licenses })
      },
    })
    const app = renderApp('/app/nuitrack-analytics/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'buy')
    const user = userEvent.setup()
    await user.click(within(steps).getByRole('button', { name: 'Start the 7-day Analytics trial' }))
    await waitFor(() => expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'fill'))
    expect(within(steps).queryByRole('button', { name: 'Skip' })).toBeNull()
    // tier 4 ($20.00) is what the cloud card sells
    await user.click(within(steps).getByRole('button', { name: 'Add funds' }))
    expect(fillBalanceStore.get()).toEqual({ shortfallCents: 1500 })
    fillBalanceStore.close()
    client = { ...client, client_info: { ...client.client_info, balance: 20 } }
    await app.queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
    await waitFor(() => expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'success'))
  })
})
