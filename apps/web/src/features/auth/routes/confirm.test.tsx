import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

const TOKEN = 'abcdefghijklmnop1234'

describe('confirmation and logout', () => {
  it('confirms a registration from /app/registration-confirm/:id/:token/ once and returns to login', async () => {
    const calls = mockApi({ 'POST /api/client/confirm/': () => json(200, { status: 'ok', kind: 'registration', email: 'ann@example.com' }) })
    const app = renderApp(`/app/registration-confirm/4/${TOKEN}/`)
    expect(await screen.findByRole('heading', { name: 'Registration confirmed' })).toBeInTheDocument()
    expect(calls).toHaveLength(1)
    expect(calls[0]!.body).toEqual({ client_id: 4, confirmation_token: TOKEN })
    await userEvent.setup().click(screen.getByRole('button', { name: 'Return to login' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/login/'))
  })

  it('shows the new e-mail for an e-mail change from /app/confirm/?client_id=&token=', async () => {
    mockApi({ 'POST /api/client/confirm/': () => json(200, { status: 'ok', kind: 'email_change', email: 'new@example.com' }) })
    renderApp(`/app/confirm/?client_id=4&token=${TOKEN}`)
    expect(await screen.findByTestId('confirmation-success')).toHaveTextContent('Your e-mail is now new@example.com.')
  })

  it('a signed-in user who changed the e-mail goes back to the account, not to a login', async () => {
    setLogged()
    mockApi({
      ...signedInRoutes(),
      'POST /api/client/confirm/': () => json(200, { status: 'ok', kind: 'email_change', email: 'new@example.com' }),
    })
    const app = renderApp(`/app/registration-confirm/4/${TOKEN}/`)
    expect(await screen.findByRole('heading', { name: 'E-mail changed' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Return to login' })).toBeNull()
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to your account' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/account/'))
  })

  it('shows the confirmation-error screen when the link fails, without the error modal', async () => {
    mockApi({ 'POST /api/client/confirm/': () => json(403, { error_code: '4bdf9f69', error: 'bad' }) })
    renderApp(`/app/confirm/?id=4&token=${TOKEN}`)
    expect(await screen.findByTestId('confirmation-error')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('logout calls the endpoint, forgets the session memory and goes to the login page', async () => {
    setLogged()
    sessionStorage.setItem('portal.remembered', JSON.stringify({ path: '/app/account/', platform: null }))
    const calls = mockApi({
      'GET /api/client/logout/': () => {
        document.cookie = 'user_status=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
        return json(200, { status: 'ok' })
      },
    })
    const app = renderApp('/app/logout/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/login/'))
    expect(calls[0]).toMatchObject({ url: '/api/client/logout/', method: 'GET' })
    expect(sessionStorage.getItem('portal.remembered')).toBeNull()
  })
})

describe('undoing an e-mail change', () => {
  it('asks first, then undoes the change and offers a new password', async () => {
    const calls = mockApi({ 'POST /api/client/revert-email/': () => json(200, { status: 'ok', email: 'old@example.com' }) })
    renderApp(`/app/email-revert/4/${TOKEN}/`)
    expect(await screen.findByRole('heading', { name: 'Undo the e-mail change?' })).toBeInTheDocument()
    // opening the link changes nothing
    expect(calls).toHaveLength(0)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Undo the change' }))
    expect(await screen.findByTestId('email-revert-done')).toHaveTextContent('Your e-mail is old@example.com again.')
    expect(calls[0]!.body).toEqual({ client_id: 4, confirmation_token: TOKEN })
    expect(screen.getByRole('link', { name: 'Set a new password' })).toHaveAttribute('href', '/app/forgot-password/')
  })

  it('says when the link is dead, and when another account holds the address now, without the error modal', async () => {
    mockApi({ 'POST /api/client/revert-email/': () => json(403, { error_code: '4bdf9f69', error: 'The link is invalid or outdated' }) })
    renderApp(`/app/email-revert/4/${TOKEN}/`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }))
    expect(await screen.findByTestId('email-revert-error')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()

    mockApi({ 'POST /api/client/revert-email/': () => json(400, { error_code: '6352926b', error: 'in use' }) })
    renderApp(`/app/email-revert/5/${TOKEN}/`)
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Another account uses this address now')
    expect(screen.getByRole('button', { name: 'Undo the change' })).toBeDisabled()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
