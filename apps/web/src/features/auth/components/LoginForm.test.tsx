import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi, profile, renderApp, signedInRoutes } from '../../../test/utils.tsx'

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' })
/** The error text Mantine renders for an input (linked by aria-describedby). */
const errorOf = (input: HTMLElement) => {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

async function submit(email: string, password: string) {
  const user = userEvent.setup()
  if (email) await user.type(field(/e-mail/i), email)
  if (password) await user.type(field(/^password/i), password)
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  return user
}

describe('login form', () => {
  it('shows the schema messages next to the fields and sends nothing', async () => {
    const calls = mockApi({})
    renderApp('/app/login/')
    await submit('', '')
    expect(errorOf(field(/e-mail/i))).toContain('Please enter your email')
    expect(errorOf(field(/^password/i))).toContain('Please enter your password')
    expect(calls).toHaveLength(0)

    const user = userEvent.setup()
    await user.type(field(/e-mail/i), 'not-an-email')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(errorOf(field(/e-mail/i))).toContain('Incorrect email format')
  })

  it('has the spec input limits', () => {
    mockApi({})
    renderApp('/app/login/')
    expect(field(/e-mail/i)).toHaveAttribute('maxlength', '151')
    expect(field(/^password/i)).toHaveAttribute('maxlength', '257')
  })

  it('puts 3fc79796 under the password and e1a53088 under the e-mail, without the error modal', async () => {
    // the server names the field each of these belongs to
    let answer = { error_code: '3fc79796', error: 'x', field: 'password' }
    mockApi({ 'POST /api/client/signin/': () => json(400, answer) })
    renderApp('/app/login/')
    await submit('ann@example.com', 'Secret-1')
    await waitFor(() => expect(errorOf(field(/^password/i))).toContain('Password is incorrect'))
    expect(screen.queryByRole('dialog')).toBeNull()

    answer = { error_code: 'e1a53088', error: 'x', field: 'username' }
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(errorOf(field(/e-mail/i))).toContain("A user with this e-mail doesn't exist"))
  })

  it("shows 'Invalid email or password' for ba8aedaf", async () => {
    mockApi({ 'POST /api/client/signin/': () => json(400, { error_code: 'ba8aedaf', error: 'Invalid email or password' }) })
    renderApp('/app/login/')
    await submit('ann@example.com', 'Secret-1')
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password')
  })

  it('sends the sign-in body with the CSRF header and goes to the remembered page', async () => {
    document.cookie = 'csrftoken=abc123; path=/'
    const calls = mockApi({
      ...signedInRoutes(),
      'POST /api/client/signin/': () => {
        document.cookie = 'user_status=logged; path=/'
        return json(200, profile())
      },
    })
    const app = renderApp('/app/login/', { from: '/app/account/', platform: 'face' })
    await submit('ann@example.com', 'Secret-1')
    await waitFor(() => expect(app.location().pathname).toBe('/app/account/'))
    const signin = calls.find((c) => c.url === '/api/client/signin/')!
    expect(signin.method).toBe('POST')
    expect(signin.body).toEqual({ username: 'ann@example.com', password: 'Secret-1', nuitrack_analytics_login: false })
    expect(signin.headers['X-CSRFToken']).toBe('abc123')
  })

  it('goes to ?next, else the platform home after sign-in', async () => {
    mockApi({
      ...signedInRoutes(),
      'POST /api/client/signin/': () => {
        document.cookie = 'user_status=logged; path=/'
        return json(200, profile())
      },
    })
    const app = renderApp('/app/login/?platform=face&next=%2F%2Fevil.com')
    await submit('ann@example.com', 'Secret-1')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
  })

  it('shows the confirm-your-email screen for e6f34eac and resends the link', async () => {
    const calls = mockApi({
      'POST /api/client/signin/': () => json(403, { error_code: 'e6f34eac', error: 'not confirmed' }),
      'POST /api/client/send-confirmation-url/': () => json(200, { status: 'ok' }),
    })
    renderApp('/app/login/?platform=nuitrack')
    const user = await submit('ann@example.com', 'Secret-1')
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Resend' }))
    expect(await screen.findByRole('status')).toHaveTextContent(/new confirmation link/i)
    const resend = calls.find((c) => c.url === '/api/client/send-confirmation-url/')!
    expect(resend.body).toEqual({ client_email: 'ann@example.com', segment: 'nuitrack' })
  })

  it('links to registration and forgot password', () => {
    mockApi({})
    renderApp('/app/login/')
    const form = screen.getByRole('form', { name: 'Sign in' })
    expect(within(form).getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/app/registration/')
    expect(within(form).getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/app/forgot-password/')
  })
})
