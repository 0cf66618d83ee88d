import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { contactSales } from '../../../lib/contact-sales.ts'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

const URL = 'POST /api/support/contacts-sales/' as const
const DETAILS = 'We need 40 licenses of Nuitrack Analytics on our own servers.'

async function openModal() {
  renderApp('/app/account/')
  // the shell is up once the profile shows
  await screen.findByTestId('display-name')
  await act(async () => contactSales.open())
  return screen.findByRole('dialog', { name: 'Contact sales' })
}

describe('the contact-sales modal', () => {
  it('opens from the store with the name and e-mail of the profile, sends, and shows the thank-you', async () => {
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const dialog = await openModal()
    const name = within(dialog).getByLabelText(/^Name/, { selector: 'input' })
    const email = within(dialog).getByLabelText(/^E-mail/, { selector: 'input' })
    const details = within(dialog).getByLabelText(/^Details/, { selector: 'textarea' })
    expect(name).toHaveValue('Ann Lee')
    expect(name).toHaveAttribute('maxlength', '30')
    expect(email).toHaveValue('ann@example.com')
    expect(details).toHaveAttribute('maxlength', '99999')
    const user = userEvent.setup()
    await user.type(details, DETAILS)
    expect(within(dialog).getByText(`${DETAILS.length} of 10000 characters, at least 20`)).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Send' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Our sales team will reply to ann@example.com within one working day.')
    expect(calls.filter((c) => c.url === '/api/support/contacts-sales/').map((c) => c.body)).toEqual([
      { recipient: 'sales', name: 'Ann Lee', email: 'ann@example.com', message: DETAILS },
    ])
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contact sales' })).toBeNull())
  })

  it('shows the section-5 errors next to their fields and sends nothing', async () => {
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const dialog = await openModal()
    const user = userEvent.setup()
    await user.clear(within(dialog).getByLabelText(/^Name/, { selector: 'input' }))
    await user.clear(within(dialog).getByLabelText(/^E-mail/, { selector: 'input' }))
    await user.type(within(dialog).getByLabelText(/^E-mail/, { selector: 'input' }), 'not-an-email')
    await user.type(within(dialog).getByLabelText(/^Details/, { selector: 'textarea' }), 'Too short')
    await user.click(within(dialog).getByRole('button', { name: 'Send' }))
    expect(await within(dialog).findByText('Please enter your name')).toBeInTheDocument()
    expect(within(dialog).getByText('Incorrect email format')).toBeInTheDocument()
    expect(within(dialog).getByText('Please write at least 20 characters')).toBeInTheDocument()
    expect(within(dialog).getByLabelText(/^Name/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'true')
    // an over-long paste is allowed into the input and refused by the rule
    fireEvent.change(within(dialog).getByLabelText(/^Details/, { selector: 'textarea' }), { target: { value: 'x'.repeat(10_001) } })
    await user.click(within(dialog).getByRole('button', { name: 'Send' }))
    expect(await within(dialog).findByText('The details must be at most 10000 characters')).toBeInTheDocument()
    expect(calls.some((c) => c.url === '/api/support/contacts-sales/')).toBe(false)
  })

  it('a refusal from the server (rate limit) says the request was not sent and keeps the text', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), [URL]: () => json(429, { error_code: ERRORS.rate_limited.code, error: ERRORS.rate_limited.message }) })
    const dialog = await openModal()
    const user = userEvent.setup()
    await user.type(within(dialog).getByLabelText(/^Details/, { selector: 'textarea' }), DETAILS)
    await user.click(within(dialog).getByRole('button', { name: 'Send' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert).toHaveTextContent('Request not sent')
    expect(alert).toHaveTextContent(ERRORS.rate_limited.message)
    expect(within(dialog).getByLabelText(/^Details/, { selector: 'textarea' })).toHaveValue(DETAILS)
  })

  it('starts afresh at each opening, with the details a caller passes', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const dialog = await openModal()
    const user = userEvent.setup()
    await user.type(within(dialog).getByLabelText(/^Details/, { selector: 'textarea' }), 'half-written')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contact sales' })).toBeNull())
    // the store is closed and the modal's exit has run before the next opening (an opening from a test
    // is a state update of its own: async act lets every pending update settle first)
    await waitFor(() => expect(contactSales.get()).toBeNull())
    await act(async () => contactSales.open({ details: 'About the on-premise edition: ' }))
    const again = await screen.findByRole('dialog', { name: 'Contact sales' })
    expect(within(again).getByLabelText(/^Details/, { selector: 'textarea' })).toHaveValue('About the on-premise edition: ')
  })
})
