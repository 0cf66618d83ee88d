import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockApi, renderApp, setLogged, signedInRoutes } from '../../test/utils.tsx'

describe('the shell', () => {
  it('the open side menu (below 1025 px) hides the floating feedback button, which would cover its footer links', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/account/')
    await screen.findByTestId('display-name')
    expect(screen.getByRole('button', { name: 'Feedback' })).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    expect(screen.queryByRole('button', { name: 'Feedback' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Close menu' }))
    expect(screen.getByRole('button', { name: 'Feedback' })).toBeInTheDocument()
  })

  it("a dialog's code loads when it first opens: the feedback dialog is not in the page before", async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/account/')
    await screen.findByTestId('display-name')
    expect(screen.queryByRole('dialog')).toBeNull()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Feedback' }))
    expect(await screen.findByRole('dialog', { name: 'How do you like the portal?' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull())
  })
})
