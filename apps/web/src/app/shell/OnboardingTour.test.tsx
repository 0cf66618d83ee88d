import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { json, licenseView, mockApi, renderApp, setLogged, signedInRoutes, licenseListAnswer, type Call } from '../../test/utils.tsx'

const SEEN = 'portal.tour.seen.ann@example.com'

const newClient = () => ({
  ...signedInRoutes(),
  'GET /api/license/': (c: Call) => licenseListAnswer([], c.url),
  'GET /api/group/': () => json(200, { groups: [], unactivated_licenses: 0 }),
})

describe('the onboarding tour', () => {
  beforeEach(() => localStorage.clear())

  it('opens once by itself for a new client on a dashboard and walks its 4 steps', async () => {
    setLogged()
    mockApi(newClient())
    renderApp('/app/nuitrack/dashboard/')
    const tour = await screen.findByRole('dialog', { name: 'Your products' })
    expect(localStorage.getItem(SEEN)).not.toBeNull()
    expect(within(tour).getByText('Step 1 of 4')).toBeInTheDocument()
    const user = userEvent.setup()
    // the primary button holds the focus; Next, then the arrow keys
    expect(within(tour).getByRole('button', { name: 'Next' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('dialog', { name: 'Your balance' })).toBeInTheDocument()
    await user.keyboard('{ArrowRight}')
    expect(await screen.findByRole('dialog', { name: 'Buy, get help, read the docs' })).toBeInTheDocument()
    await user.keyboard('{ArrowLeft}')
    expect(await screen.findByRole('dialog', { name: 'Your balance' })).toBeInTheDocument()
    await user.keyboard('{ArrowRight}{ArrowRight}')
    const last = await screen.findByRole('dialog', { name: 'Your licenses' })
    expect(within(last).getByText('Step 4 of 4')).toBeInTheDocument()
    await user.click(within(last).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByTestId('onboarding-tour')).toBeNull())
  })

  it('every step points at an element of the dashboard that is there', async () => {
    setLogged()
    mockApi(newClient())
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('dialog', { name: 'Your products' })
    for (const name of ['products', 'balance', 'menu-button', 'help', 'licenses']) {
      await waitFor(() => expect(document.querySelector(`[data-tour="${name}"]`), name).not.toBeNull())
    }
  })

  it('closes with Escape and stays closed next time; the menu opens it again', async () => {
    setLogged()
    mockApi(newClient())
    const { unmount } = renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('dialog', { name: 'Your products' })
    const user = userEvent.setup()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('onboarding-tour')).toBeNull())
    unmount()
    renderApp('/app/face/dashboard/')
    await screen.findByTestId('display-name')
    await screen.findByRole('region', { name: 'Help' })
    expect(screen.queryByTestId('onboarding-tour')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Take the tour' }))
    expect(await screen.findByRole('dialog', { name: 'Your products' })).toBeInTheDocument()
  })

  it('closes with Escape pressed while the focus is still outside the card', async () => {
    setLogged()
    mockApi(newClient())
    renderApp('/app/nuitrack/dashboard/')
    const tour = await screen.findByRole('dialog', { name: 'Your products' })
    // the card takes the focus a moment after it opens: a key pressed before then reaches the page
    const menuButton = screen.getByRole('button', { name: 'Take the tour' })
    menuButton.focus()
    expect(tour).not.toContainElement(document.activeElement as HTMLElement)
    await userEvent.setup().keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('onboarding-tour')).toBeNull())
  })

  it('does not open by itself for a client who already has licenses', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), 'GET /api/license/': (c) => licenseListAnswer([licenseView()], c.url) })
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByRole('region', { name: 'Help' })
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByTestId('onboarding-tour')).toBeNull()
    expect(localStorage.getItem(SEEN)).toBeNull()
  })
})
