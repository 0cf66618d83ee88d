import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockApi, renderApp, setLogged, signedInRoutes } from '../../test/utils.tsx'

describe('the shell', () => {
  it('the feedback button sits in the header, beside the name, and stays there with the menu open', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/account/')
    await screen.findByTestId('display-name')
    const header = screen.getByRole('banner')
    expect(within(header).getByRole('button', { name: 'Feedback' })).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    expect(within(header).getByRole('button', { name: 'Feedback' })).toBeInTheDocument()
  })

  it('the first stop of the keyboard is the skip link, which moves the focus to the main area without a navigation', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/account/')
    await screen.findByTestId('display-name')
    const user = userEvent.setup()
    await user.tab()
    const skip = screen.getByRole('link', { name: 'Skip to the main content' })
    expect(skip).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(screen.getByRole('main')).toHaveFocus()
    expect(app.location().pathname).toBe('/app/account/')
    expect(app.location().hash).toBe('')
  })

  it('the open menu takes the keyboard: focus moves into it, and Escape closes it and goes back to the burger', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/account/')
    await screen.findByTestId('display-name')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    const menu = screen.getByRole('navigation', { name: 'Main menu' })
    await waitFor(() => expect(menu).toContainElement(document.activeElement as HTMLElement))
    await user.keyboard('{Escape}')
    const burger = screen.getByRole('button', { name: 'Open menu' })
    expect(burger).toHaveAttribute('aria-expanded', 'false')
    expect(burger).toHaveFocus()
  })

  it("a top-up's unpaid return says nothing was charged, once, and the address loses the query", async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/account/?topup=not-paid')
    expect(await screen.findByText('The top-up was not paid')).toBeInTheDocument()
    expect(screen.getByText(/Nothing was charged/)).toBeInTheDocument()
    await waitFor(() => expect(app.location().search).toBe(''))
    expect(app.location().pathname).toBe('/app/account/')
    expect(screen.getAllByText('The top-up was not paid')).toHaveLength(1)
  })

  it("a purchase's unpaid return to its checkout says the payment was not completed and the basket is kept, once", async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/nuitrack/basket/checkout/?payment=not-paid')
    expect(await screen.findByText('The payment was not completed')).toBeInTheDocument()
    expect(screen.getByText(/declined or cancelled, and nothing was charged\. Your basket is kept/)).toBeInTheDocument()
    await waitFor(() => expect(app.location().search).toBe(''))
    expect(app.location().pathname).toBe('/app/nuitrack/basket/checkout/')
    expect(screen.getAllByText('The payment was not completed')).toHaveLength(1)
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
