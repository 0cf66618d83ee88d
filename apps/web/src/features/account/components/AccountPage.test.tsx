import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { json, mockApi, profile, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

const section = (name: string) => screen.findByRole('region', { name })

describe('account page', () => {
  it('changes the password: 3fc79796 on the current-password field, then the success view with Done', async () => {
    setLogged()
    let fail = true
    const calls = mockApi({
      ...signedInRoutes(),
      'POST /api/client/change-password/': () =>
        fail ? json(400, { error_code: '3fc79796', error: 'x', field: 'old_password' }) : json(200, { status: 'ok' }),
    })
    renderApp('/app/account/')
    const card = await section('Password')
    const user = userEvent.setup()
    await user.type(within(card).getByLabelText('Current password', { selector: 'input' }), 'Old-Pass1')
    await user.type(within(card).getByLabelText('New password', { selector: 'input' }), 'N3w-Secret')
    await user.type(within(card).getByLabelText('Repeat new password', { selector: 'input' }), 'N3w-Secret')
    await user.click(within(card).getByRole('button', { name: 'Change password' }))
    expect(await within(card).findByText('Password is incorrect')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()

    fail = false
    await user.click(within(card).getByRole('button', { name: 'Change password' }))
    expect(await within(card).findByRole('status')).toHaveTextContent(/password has been changed/i)
    expect(calls.filter((c) => c.url === '/api/client/change-password/').at(-1)!.body).toEqual({ old_password: 'Old-Pass1', new_password: 'N3w-Secret' })
    await user.click(within(card).getByRole('button', { name: 'Done' }))
    expect(within(card).getByRole('button', { name: 'Change password' })).toBeInTheDocument()
  })

  it('asks for an e-mail change and shows the pending confirmation', async () => {
    setLogged()
    let current = profile()
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, current),
      'POST /api/client/': () => {
        current = profile({ pending_email: 'new@example.com' })
        return json(200, { client_info: current.client_info, email_confirmation_sent: true })
      },
    })
    renderApp('/app/account/')
    const card = await section('E-mail')
    const user = userEvent.setup()
    await user.type(within(card).getByLabelText('New e-mail', { selector: 'input' }), 'new@example.com')
    await user.click(within(card).getByRole('button', { name: 'Change e-mail' }))
    expect(await within(card).findByRole('status')).toHaveTextContent('We sent a confirmation link to new@example.com')
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ email: 'new@example.com' })
  })

  it('switches to a corporate account, confirms in a dialog and shows the company fields', async () => {
    setLogged()
    let current = profile()
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, current),
      'POST /api/client/': () => {
        current = profile({ options: { ...current.client_info.options, corporate_member: true } })
        return json(200, { client_info: current.client_info, email_confirmation_sent: false })
      },
    })
    renderApp('/app/account/')
    expect(await screen.findByLabelText('Name', { selector: 'input' })).toHaveAttribute('maxlength', '30')
    expect(screen.queryByLabelText('Position', { selector: 'input' })).toBeNull()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Switch to corporate' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch' }))
    const done = await screen.findByRole('dialog', { name: 'Account type changed' })
    expect(done).toHaveTextContent('Your account is now corporate.')
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ options: { corporate_member: true } })
    await user.click(within(done).getByRole('button', { name: 'Fill in billing info' }))
    await waitFor(() => expect(screen.getByLabelText('Company name', { selector: 'input' })).toHaveAttribute('maxlength', '30'))
    expect(screen.getByLabelText('Position', { selector: 'input' })).toHaveAttribute('maxlength', '150')
  })
  it('a company with other members stays corporate: the refusal sits under the switch, with the way to the members', async () => {
    setLogged()
    const current = profile()
    const corporate = profile({ options: { ...current.client_info.options, corporate_member: true } })
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, corporate),
      'POST /api/client/': () => json(409, { error_code: ERRORS.org_has_members.code, error: ERRORS.org_has_members.message }),
    })
    renderApp('/app/account/')
    const card = await section('Account type')
    const user = userEvent.setup()
    await user.click(within(card).getByRole('button', { name: 'Switch to personal' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch' }))
    const refusal = await within(card).findByRole('alert')
    expect(refusal).toHaveTextContent(ERRORS.org_has_members.message)
    expect(within(refusal).getByRole('link', { name: 'Go to the members' })).toHaveAttribute('href', '/app/members/')
    expect(within(card).getByRole('button', { name: 'Switch to personal' })).toHaveAccessibleDescription(/Remove the other members/)
    // no error dialog, and the account stays corporate
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(within(card).getByText('corporate')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
  })
})
