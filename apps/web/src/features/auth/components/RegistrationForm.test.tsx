import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi, renderApp, signedInRoutes } from '../../../test/utils.tsx'

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' })
const errorOf = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

async function fill(user: ReturnType<typeof userEvent.setup>, email = 'new@example.com', password = 'Str0ng-Pass', repeat = password) {
  await user.type(input(/e-mail/i), email)
  await user.type(input(/^password/i), password)
  await user.type(input(/repeat password/i), repeat)
}

describe('registration', () => {
  it('checks the password rules and the repeat from the shared schema', async () => {
    const calls = mockApi({ 'POST /api/client/signup/': () => json(201, {}) })
    renderApp('/app/registration/')
    const user = userEvent.setup()
    await fill(user, 'new@example.com', 'weakpass', 'other')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(errorOf(input(/^password/i))).toMatch(/uppercase letter/)
    expect(errorOf(input(/repeat password/i))).toContain("Password doesn't match")
    expect(calls).toHaveLength(0)
  })

  it('sends is_corporate from the personal/corporate toggle and shows the completion screen', async () => {
    const calls = mockApi({ 'POST /api/client/signup/': () => json(201, { client_id: 3, email: 'new@example.com' }) })
    const app = renderApp('/app/registration/?platform=face')
    const user = userEvent.setup()
    expect(screen.getByRole('radio', { name: 'Personal' })).toBeChecked()
    await user.click(screen.getByText('Corporate'))
    expect(screen.getByRole('radio', { name: 'Corporate' })).toBeChecked()
    await fill(user)
    await user.click(screen.getByRole('button', { name: 'Create account' }))

    expect(await screen.findByTestId('registration-complete')).toHaveTextContent('We sent a confirmation link to new@example.com.')
    expect(calls[0]!.url).toBe('/api/client/signup/')
    expect(calls[0]!.body).toEqual({ username: 'new@example.com', email: 'new@example.com', password: 'Str0ng-Pass', is_corporate: true, segment: 'face' })

    await user.click(screen.getByRole('link', { name: 'Return to login' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/login/'))
  })

  it('puts 6352926b on the e-mail field and 4f37c7da on the password field', async () => {
    // the server names the field each of these belongs to
    let answer = { error_code: '6352926b', error: 'x', field: 'username' }
    mockApi({ 'POST /api/client/signup/': () => json(400, answer) })
    renderApp('/app/registration/')
    const user = userEvent.setup()
    await fill(user)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(errorOf(input(/e-mail/i))).toContain('This e-mail is already in use'))

    answer = { error_code: '4f37c7da', error: 'x', field: 'password' }
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(errorOf(input(/^password/i))).toContain('Password does not meet the requirements'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('sends a signed-in user away to the platform page', async () => {
    document.cookie = 'user_status=logged; path=/'
    mockApi(signedInRoutes())
    const app = renderApp('/app/registration/?platform=face')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
  })
})
