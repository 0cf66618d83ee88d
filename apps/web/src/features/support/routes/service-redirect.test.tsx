import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { leave } from '../../../lib/leave.ts'
import { mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

afterEach(() => vi.restoreAllMocks())

describe('/app/service-redirect/', () => {
  it('sends a signed-in client on to the service redirect with the license id', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const to = vi.spyOn(leave, 'to').mockImplementation(() => {})
    renderApp('/app/service-redirect/?service=face-machine&license_id=12')
    await waitFor(() => expect(to).toHaveBeenCalledWith('/api/service/redirect/?service=face-machine&license_id=12'))
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/api/service/redirect/?service=face-machine&license_id=12')
  })

  it("resumes the helpdesk's sign-on request after the sign-in, and nothing but its parameters", async () => {
    setLogged()
    mockApi(signedInRoutes())
    const to = vi.spyOn(leave, 'to').mockImplementation(() => {})
    const request = new URLSearchParams({ client_id: '42', state: 's t', nonce: 'n', redirect_uri: 'https://help.example.com/sp/OIDC/42/implicit' })
    renderApp(`/app/service-redirect/?helpdesk=${encodeURIComponent(request.toString())}`)
    await waitFor(() => expect(to).toHaveBeenCalledWith(`/api/service/freshdesk/authorize/?${request.toString()}`))
    to.mockClear()
    renderApp(`/app/service-redirect/?helpdesk=${encodeURIComponent('client_id=42&next=https://evil.example')}`)
    expect(await screen.findByRole('alert')).toHaveTextContent('This link does not name a service we know.')
    expect(to).not.toHaveBeenCalled()
  })

  it('goes nowhere for a service it does not know, and drops a bad license id', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const to = vi.spyOn(leave, 'to').mockImplementation(() => {})
    renderApp('/app/service-redirect/?service=https://evil.example')
    expect(await screen.findByRole('alert')).toHaveTextContent('This link does not name a service we know.')
    expect(to).not.toHaveBeenCalled()
  })

  it('drops a license id that is not a number', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const to = vi.spyOn(leave, 'to').mockImplementation(() => {})
    renderApp('/app/service-redirect/?service=freshdesk&license_id=1%26service%3Devil')
    await waitFor(() => expect(to).toHaveBeenCalledWith('/api/service/redirect/?service=freshdesk'))
  })
})
