import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi, profile, renderApp, signedInRoutes } from '../../../test/utils.tsx'

const TOKEN = 'abcdefghijklmnop1234'

describe('set password', () => {
  it.each([400, 403, 404])('shows the link-expired screen when the token check answers %i, and resends', async (status) => {
    const calls = mockApi({
      'GET /api/client/:id/validate-confirmation-token/:token/': () => json(status, { error_code: '4bdf9f69', error: 'bad' }),
      'POST /api/client/send-password-reset-url/': () => json(200, { status: 'ok' }),
    })
    renderApp(`/app/set-password/5/${TOKEN}/?platform=face`)
    expect(await screen.findByTestId('link-expired')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls[0]!.url).toBe(`/api/client/5/validate-confirmation-token/${TOKEN}/`)

    const user = userEvent.setup()
    await user.type(screen.getByLabelText(/e-mail/i, { selector: 'input' }), 'ann@example.com')
    await user.click(screen.getByRole('button', { name: 'Send a new link' }))
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a password reset link to ann@example.com')
    const resend = calls.find((c) => c.url === '/api/client/send-password-reset-url/')!
    expect(resend.body).toEqual({ client_email: 'ann@example.com', segment: 'face' })
  })

  it('sets the password with a valid link and goes to the sanitised next', async () => {
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/:id/validate-confirmation-token/:token/': () => json(200, { status: 'ok', email: 'ann@example.com' }),
      'POST /api/client/reset-password/': () => {
        document.cookie = 'user_status=logged; path=/'
        return json(200, profile())
      },
    })
    const app = renderApp(`/app/set-password/5/${TOKEN}/?next=%2Fapp%2Faccount%2F`)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText(/new password/i, { selector: 'input' }), 'N3w-Secret')
    await user.type(screen.getByLabelText(/repeat password/i, { selector: 'input' }), 'N3w-Secret')
    await user.click(screen.getByRole('button', { name: 'Save password' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/account/'))
    expect(calls.find((c) => c.url === '/api/client/reset-password/')!.body).toEqual({
      client_id: 5,
      confirmation_token: TOKEN,
      new_password: 'N3w-Secret',
    })
  })

  it('puts 0c21cb17 on the new-password field', async () => {
    mockApi({
      'GET /api/client/:id/validate-confirmation-token/:token/': () => json(200, { status: 'ok', email: 'ann@example.com' }),
      'POST /api/client/reset-password/': () => json(400, { error_code: '0c21cb17', error: 'same', field: 'new_password' }),
    })
    renderApp(`/app/set-password/5/${TOKEN}/`)
    const user = userEvent.setup()
    const pw = await screen.findByLabelText(/new password/i, { selector: 'input' })
    await user.type(pw, 'N3w-Secret')
    await user.type(screen.getByLabelText(/repeat password/i, { selector: 'input' }), 'N3w-Secret')
    await user.click(screen.getByRole('button', { name: 'Save password' }))
    expect(await screen.findByText('New password must differ from the previous one')).toBeInTheDocument()
  })
})
