import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { LicenseView } from '@portal/domain'
import { groupView, json, licenseView, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

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

  it('without licenses shows the first steps; starting the trial creates it and the table shows it', async () => {
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
})
