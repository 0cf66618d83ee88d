import { configure, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fleetView, json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

configure({ asyncUtilTimeout: 5000 })
afterEach(() => vi.restoreAllMocks())

// jsdom lays nothing out: recharts warns that its box measures 0 by 0, which says nothing about the screen
const warn = console.warn.bind(console)
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('The width(0) and height(0) of chart')) warn(...args)
  })
})

const FLEET = fleetView({
  activations: { '2026-06-10': { nuitrack: 2, face: 1 }, '2026-06-17': { 'face-machine': 3 } },
  status: { active: 4, new: 1, suspended: 2 },
  expiring: { '2026-06-29': 2 },
  spend: { '2026-05': { nuitrack: 1999 }, '2026-06': { face: 3000, 'nuitrack-analytics': -300 } },
})
const card = (testId: string) => screen.findByTestId(testId)

describe('the fleet and spend screen', () => {
  it('shows a loading state, then four charts, each with its summary and a table for screen readers', async () => {
    setLogged()
    let answer: (() => void) | null = null
    const held = new Promise<void>((resolve) => (answer = resolve))
    mockApi({ ...signedInRoutes(), 'GET /api/account/fleet/': async () => (await held, json(200, FLEET)) })
    renderApp('/app/fleet/')
    expect(await screen.findByTestId('fleet-loading')).toHaveAttribute('aria-busy', 'true')
    answer!()

    const activations = await card('fleet-activations')
    expect(within(activations).getByRole('heading', { name: 'Devices activated per day' })).toBeInTheDocument()
    expect(within(activations).getByTestId('chart-summary')).toHaveTextContent('Device activations in the last 90 days: 6')
    // the chart is for the eye; its figures are a table in the page (out of sight), days without activations left out
    expect(within(activations).getByTestId('chart')).toHaveAttribute('aria-hidden', 'true')
    const rows = within(within(activations).getByRole('table')).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(rows[1]).toHaveTextContent(/Jun 10\s*2\s*1\s*0\s*0\s*3/)
    expect(rows[2]).toHaveTextContent(/Jun 17\s*0\s*0\s*3\s*0\s*3/)

    const status = await card('fleet-status')
    expect(within(status).getByTestId('chart-summary')).toHaveTextContent('Licenses: 7')
    expect(within(status).getByRole('row', { name: /Active\s*4/ })).toBeInTheDocument()

    const expiring = await card('fleet-expiring')
    expect(within(expiring).getByTestId('chart-summary')).toHaveTextContent('Expiring in the next 90 days: 2')
    expect(within(within(expiring).getByRole('table')).getAllByRole('row')).toHaveLength(15)

    const spend = await card('fleet-spend')
    expect(within(spend).getByTestId('chart-summary')).toHaveTextContent('Spent in the last 12 months, refunds deducted: $46.99')
    const june = within(spend).getByRole('row', { name: /Jun 2026/ })
    // Nuitrack, Face SDK, Face Machine, Nuitrack Analytics, total: in dollars and cents, a refund negative
    expect(
      within(june)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['$0.00', '$30.00', '$0.00', '-$3.00', '$27.00'])
  })

  it('"Show as table" puts the table in the chart\'s place', async () => {
    setLogged()
    mockApi(signedInRoutes({ fleet: FLEET }))
    renderApp('/app/fleet/')
    const status = await card('fleet-status')
    expect(within(status).getByTestId('chart')).toBeInTheDocument()
    await userEvent.click(within(status).getByRole('switch', { name: 'Show as table' }))
    expect(within(status).queryByTestId('chart')).not.toBeInTheDocument()
    expect(within(status).getByRole('table')).toBeVisible()
    await userEvent.click(within(status).getByRole('switch', { name: 'Show as table' }))
    expect(within(status).getByTestId('chart')).toBeInTheDocument()
  })

  it('a chart with nothing to draw says so, with no chart and no table', async () => {
    setLogged()
    mockApi(signedInRoutes({ fleet: fleetView({ status: { new: 1 } }) }))
    renderApp('/app/fleet/')
    const spend = await card('fleet-spend')
    expect(within(spend).getByTestId('chart-empty')).toHaveTextContent('Nothing was bought in the last 12 months.')
    expect(within(spend).queryByRole('table')).not.toBeInTheDocument()
    expect(within(spend).queryByRole('switch')).not.toBeInTheDocument()
    expect(within(await card('fleet-activations')).getByTestId('chart-empty')).toHaveTextContent('No device was activated in the last 90 days.')
  })

  it('an account with nothing at all sees one empty state that leads to the basket', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/fleet/')
    const empty = await screen.findByTestId('empty-state')
    expect(empty).toHaveTextContent('Nothing to picture yet')
    expect(within(empty).getByRole('link', { name: 'Go to the basket' })).toHaveAttribute('href', '/app/nuitrack/basket/')
    expect(screen.queryByTestId('fleet-activations')).not.toBeInTheDocument()
  })

  it('is in the side menu', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/fleet/')
    const menu = await screen.findByRole('navigation', { name: 'Main menu' })
    expect(within(menu).getByRole('link', { name: 'Fleet and spend' })).toHaveAttribute('aria-current', 'page')
  })
})

describe("the dashboard's fleet strip", () => {
  it("shows the platform's active devices and licenses expiring soon, and links to the full view", async () => {
    setLogged()
    mockApi(signedInRoutes({ fleetSummary: { active_devices: 12, expiring_soon: 3 } }))
    renderApp('/app/face/dashboard/')
    const strip = await screen.findByRole('region', { name: 'Face SDK at a glance' })
    expect(await within(strip).findByTestId('fleet-strip-devices')).toHaveTextContent('12Active devices')
    expect(within(strip).getByTestId('fleet-strip-expiring')).toHaveTextContent('3Expiring in the next 90 days')
    expect(within(strip).getByRole('link', { name: 'See fleet and spend' })).toHaveAttribute('href', '/app/fleet/')
  })
})
