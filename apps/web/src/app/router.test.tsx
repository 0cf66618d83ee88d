import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, renderApp, setLogged, signedInRoutes } from '../test/utils.tsx'

const at = async (app: ReturnType<typeof renderApp>, path: string) => waitFor(() => expect(`${app.location().pathname}${app.location().search}`).toBe(path))

describe('entry and redirects (spec section 2)', () => {
  it('/app goes to /app/nuitrack/ and then, signed out, to the login page remembering the target', async () => {
    mockApi({})
    const app = renderApp('/app')
    await at(app, '/app/login/')
    expect(app.location().state).toEqual({ from: '/app/nuitrack/dashboard/', platform: 'nuitrack' })
    expect(JSON.parse(sessionStorage.getItem('portal.remembered')!)).toEqual({ path: '/app/nuitrack/dashboard/', platform: 'nuitrack' })
  })

  it('a platform before a sign-in path moves to the plain path with the platform', async () => {
    mockApi({})
    const app = renderApp('/app/face/login/')
    await at(app, '/app/login/?platform=face')
    expect(app.location().state).toMatchObject({ platform: 'face' })
  })

  it('unknown sign-in family paths go to /app/', async () => {
    mockApi({})
    const app = renderApp('/app/login/whatever/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/login/'))
  })

  it('face-machine sign-in variants go to the analytics pages', async () => {
    mockApi({})
    const app = renderApp('/app/login/face-machine/')
    await at(app, '/app/login/nuitrack-analytics/')
  })

  it('other unknown paths show the not-found screen with the dashboards', async () => {
    mockApi({})
    renderApp('/app/face/nothing-here/')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Face Machine' })).toHaveAttribute('href', '/app/face-machine/dashboard/')
  })

  it('/app/face/face-machine/ goes to the Face Machine dashboard; signed in the shell shows name and balance', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/face/face-machine/')
    await at(app, '/app/face-machine/dashboard/')
    expect(await screen.findByRole('heading', { level: 1, name: 'Face Machine' })).toBeInTheDocument()
    expect(await screen.findByTestId('balance')).toHaveTextContent('$12.50')
    expect(screen.getByTestId('display-name')).toHaveTextContent('Ann Lee')
    expect(screen.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
    // the empty table's text loads with its first showing (a client with licenses never fetches it)
    expect(await screen.findByText('You have no licenses yet')).toBeInTheDocument()
  })
})
