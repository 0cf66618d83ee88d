import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { licenseView, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

/**
 * The first steps and the empty table are React.lazy pieces (their code is fetched when first shown:
 * `npm run size` proves a dashboard's first load leaves them out). What a client sees must not move.
 */
describe('dashboard: the lazily loaded first steps and empty table', () => {
  it('a client with licenses gets the table with no loading state after it, and no first steps', async () => {
    setLogged()
    mockApi(signedInRoutes({ licenses: [licenseView({ id: 1, title: 'Kiosk' }), licenseView({ id: 2, title: 'Lab' })] }))
    renderApp('/app/nuitrack/dashboard/')
    expect(await screen.findByRole('link', { name: 'Kiosk' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Loading licenses')).toBeNull()
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull()
  })

  it('a new client sees the loading state, then the first steps and the empty table at once', async () => {
    setLogged()
    // the list answers once the test has seen the loading state: a fast answer cannot skip it
    let answer = () => {}
    const held = new Promise<void>((resolve) => (answer = resolve))
    const routes = signedInRoutes()
    mockApi({ ...routes, 'GET /api/license/': async (c) => (await held, routes['GET /api/license/']!(c)) })
    renderApp('/app/nuitrack/dashboard/')
    // a spinner's name is read only with a role: an indeterminate progress bar
    expect(await screen.findByRole('progressbar', { name: 'Loading licenses' })).toBeInTheDocument()
    answer()
    expect(await screen.findByRole('region', { name: 'First steps' })).toBeInTheDocument()
    // the same commit: nothing moves once the first steps are there
    expect(screen.getByText('You have no licenses yet')).toBeInTheDocument()
    expect(screen.queryByLabelText('Loading licenses')).toBeNull()
  })
})
