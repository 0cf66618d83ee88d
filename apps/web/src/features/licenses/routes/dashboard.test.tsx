import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { GroupView, LicenseView, ProfileResponse } from '@portal/domain'
import { fillBalanceStore } from '../../../lib/fill-balance.ts'
import { unlabelledColumns } from '../../../test/card-table.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { licensePagesQueryOptions } from '../../../api/licenses.ts'
import { groupView, json, licenseView, mockApi, profile, renderApp, seededPrices, setLogged, signedInRoutes, licenseListAnswer } from '../../../test/utils.tsx'

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
    // a plain <table> with Mantine's Table classes, inside the box that scrolls it sideways
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Title', 'Product', 'Status', 'Key', 'Expires'])
    expect(screen.getByTestId('license-table-scroll')).toContainElement(table)
    expect(table).toHaveClass('mantine-Table-table')
    expect(within(table).getAllByRole('row')).toHaveLength(4)
    expect(rowTitles()).toEqual(['Nuitrack group #9: 2 to generate', 'Kiosk', 'Lab'])
    const kiosk = screen.getAllByTestId('license-row')[1]!
    expect(within(kiosk).getByTestId('status-badge')).toHaveTextContent('Active')
    expect(within(kiosk).getByText('KKKK-1111')).toBeInTheDocument()
    expect(within(table).queryByText('A face license')).toBeNull()
    // on a phone a row is a card headed by its title, each other line named by its column
    expect(unlabelledColumns(table)).toEqual(['Title'])

    const available = screen.getByRole('region', { name: 'Licenses to generate' })
    expect(available).toHaveTextContent('2 of 3 licenses not generated yet')
    expect(within(available).getByRole('link', { name: 'Generate a key' })).toHaveAttribute('href', '/app/nuitrack/dashboard/9/pre-info/')
    expect(within(available).getByRole('button', { name: 'Generate all 2 keys of Nuitrack group #9' })).toHaveTextContent('Generate all (2)')

    await userEvent.setup().click(screen.getByRole('link', { name: 'Lab' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/2/info/'))
  })

  it('"Generate all" makes a group\'s keys in one call, within the 10 unactivated licenses', async () => {
    setLogged()
    let groups = [groupView({ id: 9, title: 'Stores', limit: 12, total: 12 }), groupView({ id: 10, title: 'Lab', limit: 3, total: 3, os_type: 0 })]
    const made = [licenseView({ id: 41, title: 'Nuitrack #41', token: 'NEW1-0001' }), licenseView({ id: 42, title: 'Nuitrack #42', token: 'NEW2-0002' })]
    const calls = mockApi({
      ...signedInRoutes({ licenses: [] }),
      'GET /api/group/': () => json(200, { groups, unactivated_licenses: 8 }),
      'POST /api/group/:id/new-licenses/': () => {
        groups = [{ ...groups[0]!, limit: 10, used_licenses: 2 }, groups[1]!]
        return json(200, { licenses: made, group: groups[0] })
      },
    })
    renderApp('/app/nuitrack/dashboard/')
    const list = await screen.findByRole('region', { name: 'Licenses to generate' })
    const [stores, lab] = within(list).getAllByTestId('to-generate')
    // 8 wait unactivated: 2 more can be made now
    expect(stores).toHaveTextContent('2 can be generated now: at most 10 licenses can wait unactivated.')
    expect(within(lab!).getByRole('button', { name: 'Generate all 2 keys of Lab' })).toHaveTextContent('Generate 2')
    await userEvent.setup().click(within(stores!).getByRole('button', { name: 'Generate all 2 keys of Stores' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/group/9/new-licenses/', body: { count: 2 } }))
    expect(await screen.findByText('Keys generated: 2')).toBeInTheDocument()
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
      'GET /api/license/': (c) => licenseListAnswer(licenses, c.url),
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
    mockApi({ ...signedInRoutes(), 'GET /api/license/': (c) => licenseListAnswer(licenses, c.url) })
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
    mockApi({
      ...signedInRoutes({ profile: { ...profile(), prices: seededPrices() } }),
      'GET /api/group/': () => json(200, { groups, unactivated_licenses: 0 }),
    })
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
      'GET /api/license/': (c) => licenseListAnswer(licenses, c.url),
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

describe('a free trial already used', () => {
  it('the first steps do not offer it: they say it was used and lead to the basket', async () => {
    setLogged()
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, { ...profile(), prices: seededPrices(), trials_used: ['na_subscribe'] }),
    })
    renderApp('/app/nuitrack-analytics/dashboard/')
    const steps = await screen.findByRole('region', { name: 'First steps' })
    expect(within(steps).getByTestId('first-step')).toHaveAttribute('data-step', 'buy')
    expect(within(steps).getByTestId('trial-used')).toHaveTextContent('You have already used the free Nuitrack Analytics trial')
    expect(within(steps).queryByRole('button', { name: /trial/ })).toBeNull()
    expect(within(steps).getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/nuitrack-analytics/basket/')
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it('the Nuitrack comparison offers "Start the free trial" only while the trial is not taken', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), 'GET /api/client/': () => json(200, { ...profile(), prices: seededPrices(), trials_used: ['nuitrack_trial'] }) })
    const app = renderApp('/app/nuitrack/basket/')
    // the table (wide windows) and the plan cards (narrow ones) say the same
    expect(await screen.findByTestId('trial-used')).toHaveTextContent('You have used the free trial')
    expect(screen.getByTestId('trial-used-card')).toHaveTextContent('You have used the free trial')
    expect(screen.queryByRole('button', { name: 'Start the free trial' })).toBeNull()
    app.unmount()
    mockApi({ ...signedInRoutes(), 'GET /api/client/': () => json(200, { ...profile(), prices: seededPrices(), trials_used: [] }) })
    renderApp('/app/nuitrack/basket/')
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Start the free trial' })).toHaveLength(2))
    for (const start of screen.getAllByRole('button', { name: 'Start the free trial' })) expect(start).toBeEnabled()
    expect(screen.queryByTestId('trial-used')).toBeNull()
    expect(screen.queryByTestId('trial-used-card')).toBeNull()
  })
})

describe('dashboard: a failed list', () => {
  it('says the licenses could not be loaded instead of spinning, offers no first steps, and Try again reads the list again', async () => {
    setLogged()
    let failing = true
    const routes = signedInRoutes({ licenses: [licenseView({ id: 1, title: 'Kiosk' })] })
    const answer = routes['GET /api/license/']!
    mockApi({
      ...routes,
      'GET /api/license/': (c) => (failing ? json(503, { error_code: 'service_unavailable', error: 'down' }) : answer(c)),
    })
    renderApp('/app/nuitrack/dashboard/')
    const alert = await screen.findByText('The licenses could not be loaded')
    expect(screen.queryByLabelText('Loading licenses')).toBeNull()
    expect(screen.queryByRole('heading', { name: 'First steps' })).toBeNull()
    // the error dialog told the user why; closing it leaves the retry
    const dialog = await screen.findByRole('dialog')
    const user = userEvent.setup()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    failing = false
    await user.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Kiosk' })).toBeInTheDocument()
    expect(screen.queryByText('The licenses could not be loaded')).toBeNull()
  })
})

describe('dashboard paging', () => {
  /** 130 Nuitrack licenses, newest first: every 3rd active, every 10th a trial; and 4 Face SDK ones. */
  const many = () => {
    const list: LicenseView[] = []
    for (let id = 130; id >= 1; id--) {
      const active = id % 3 === 0
      const trial = id % 10 === 0
      list.push(
        licenseView({
          id,
          title: `L${id}`,
          state: active ? 'active' : 'new',
          license_status: active ? 'active' : 'new',
          is_trial: trial,
          config: { product: trial ? 'nuitrack_trial' : 'nuitrack_ai_perpetual' },
        }),
      )
    }
    for (let id = 140; id > 136; id--) list.push(licenseView({ id, type: 'face', title: `F${id}`, config: { product: 'face_offline_perpetual' } }))
    return list
  }
  const listCalls = (calls: { url: string; method: string }[]) =>
    calls
      .filter((c) => c.method === 'GET' && new URL(c.url, 'http://portal').pathname === '/api/license/')
      .map((c) => new URL(c.url, 'http://portal').searchParams)

  it('reads only the rows it shows: 20, then 50 more a click, with the counts for the tabs; never the whole list', { timeout: 60_000 }, async () => {
    setLogged()
    const calls = mockApi(signedInRoutes({ licenses: many(), groups: [groupView({ id: 9, title: 'Nuitrack group #9', limit: 2, total: 3 })] }))
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('table')
    // the group slot first, then 19 licenses: 20 rows
    expect(rowTitles()).toHaveLength(20)
    expect(rowTitles().slice(0, 3)).toEqual(['Nuitrack group #9: 2 to generate', 'L130', 'L129'])
    expect(screen.getByText('Showing 20 of 131')).toBeInTheDocument()
    // the tabs count the server's counts and the slot (a new one); Suspended has none and is disabled
    expect(screen.getByRole('tab', { name: 'All (131)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Active (43)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'New (88)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Suspended (0)' })).toBeDisabled()
    const first = listCalls(calls)
    expect(first.map((q) => Object.fromEntries(q))).toContainEqual({ type: 'nuitrack', status: 'all', product: 'all', offset: '0', limit: '20' })

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Show 50 more' }))
    await waitFor(() => expect(rowTitles()).toHaveLength(70))
    expect(rowTitles()[69]).toBe('L62')
    await user.click(screen.getByRole('button', { name: 'Show 50 more' }))
    await waitFor(() => expect(rowTitles()).toHaveLength(120))
    expect(screen.getByText('Showing 120 of 131')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Show 11 more' }))
    await waitFor(() => expect(rowTitles()).toHaveLength(131))
    expect(screen.queryByRole('button', { name: /more/ })).toBeNull()
    const pages = listCalls(calls).filter((q) => q.get('type') === 'nuitrack')
    expect(pages.map((q) => `${q.get('offset')}+${q.get('limit')}`)).toEqual(['0+20', '20+50', '70+50', '120+50'])
    // no call read the whole list (every list call asked for a page); the tour asked for one row
    expect(listCalls(calls).every((q) => q.has('limit'))).toBe(true)
    expect(
      listCalls(calls)
        .filter((q) => !q.has('type'))
        .map((q) => q.get('limit')),
    ).toEqual(['1'])
  })

  it('a filter asks the server for its first page again, and its rows equal the list filtered in the browser', async () => {
    setLogged()
    const all = many()
    const calls = mockApi(signedInRoutes({ licenses: all }))
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('table')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Show 50 more' }))
    await waitFor(() => expect(rowTitles()).toHaveLength(70))

    await user.click(screen.getByRole('tab', { name: 'Active (43)' }))
    await waitFor(() =>
      expect(rowTitles()).toEqual(
        all
          .filter((l) => l.type === 'nuitrack' && l.state === 'active')
          .slice(0, 20)
          .map((l) => l.title),
      ),
    )
    expect(screen.getByText('Showing 20 of 43')).toBeInTheDocument()
    expect(Object.fromEntries(listCalls(calls).at(-1)!)).toEqual({ type: 'nuitrack', status: 'active', product: 'all', offset: '0', limit: '20' })

    // a product resets the tab to All; the tabs then count within the product
    await user.click(screen.getByRole('radio', { name: 'Trial' }))
    const trials = all.filter((l) => l.type === 'nuitrack' && l.config.product === 'nuitrack_trial')
    await waitFor(() => expect(rowTitles()).toEqual(trials.map((l) => l.title)))
    expect(screen.getByRole('tab', { name: 'All (13)' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: `Active (${trials.filter((l) => l.state === 'active').length})` })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'On hold (0)' })).toBeDisabled()
    expect(Object.fromEntries(listCalls(calls).at(-1)!)).toEqual({ type: 'nuitrack', status: 'all', product: 'nuitrack_trial', offset: '0', limit: '20' })
  })

  it('a rename on the info screen reads the shown page again', { timeout: 40_000 }, async () => {
    setLogged()
    let all = many().slice(0, 5)
    const calls = mockApi({
      ...signedInRoutes({ licenses: all }),
      'GET /api/license/': (c) => licenseListAnswer(all, c.url),
      'POST /api/license/:id/': (c) => {
        all = all.map((l) => (String(l.id) === c.params.id ? { ...l, title: (c.body as { title: string }).title } : l))
        return json(
          200,
          all.find((l) => String(l.id) === c.params.id),
        )
      },
    })
    const app = renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('table')
    const before = listCalls(calls).length
    await app.router.navigate('/app/nuitrack/dashboard/130/info/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Edit title' }, { timeout: 5000 }))
    const dialog = await screen.findByRole('dialog')
    const input = within(dialog).getByLabelText('Title', { selector: 'input' })
    await user.clear(input)
    await user.type(input, 'Renamed')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(all.find((l) => l.id === 130)!.title).toBe('Renamed'))
    // the dashboard's pages are marked stale at once (read again when shown), however fresh they were
    const shown = licensePagesQueryOptions({ platform: 'nuitrack', status: 'all', product: 'all' }).queryKey
    await waitFor(() => expect(app.queryClient.getQueryState(shown)?.isInvalidated).toBe(true))
    await app.router.navigate('/app/nuitrack/dashboard/')
    await waitFor(() => expect(rowTitles()[0]).toBe('Renamed'), { timeout: 5000 })
    expect(listCalls(calls).length).toBeGreaterThan(before)
  })
})
