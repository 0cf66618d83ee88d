import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

const KEY = 'portal.whats-new.seen.ann@example.com'
const entries = [
  { version: '1.1.0', date: '2026-11-23', changes: ['Subscriptions renew by themselves'] },
  { version: '1.0.0', date: '2026-11-22', changes: ['New customer portal'] },
]

async function shell() {
  setLogged()
  mockApi({ ...signedInRoutes(), 'GET /api/changelog/': () => json(200, { entries }) })
  renderApp('/app/nuitrack/dashboard/')
  await screen.findByTestId('display-name')
}

describe("the what's-new dialog after a release", () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => vi.unstubAllGlobals())

  it('opens by itself once when a release newer than the one last shown appears', async () => {
    localStorage.setItem(KEY, '1.0.0')
    await shell()
    const dialog = await screen.findByRole('dialog', { name: "What's new" })
    expect(dialog).toHaveTextContent('Subscriptions renew by themselves')
    expect(localStorage.getItem(KEY)).toBe('1.1.0')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "What's new" })).toBeNull())
  })

  it('stays closed on the first visit, only remembering the release', async () => {
    await shell()
    await waitFor(() => expect(localStorage.getItem(KEY)).toBe('1.1.0'))
    expect(screen.queryByRole('dialog', { name: "What's new" })).toBeNull()
  })

  it('asks for the changelog only once the page has drawn and the browser is idle', async () => {
    localStorage.setItem(KEY, '1.0.0')
    let idle: (() => void) | undefined
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => ((idle = cb), 1))
    vi.stubGlobal('cancelIdleCallback', () => undefined)
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), 'GET /api/changelog/': () => json(200, { entries }) })
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByTestId('display-name')
    expect(calls.map((c) => c.url)).not.toContain('/api/changelog/')
    act(() => idle!())
    expect(await screen.findByRole('dialog', { name: "What's new" })).toBeInTheDocument()
    expect(calls.map((c) => c.url)).toContain('/api/changelog/')
  })

  it('stays closed when the newest release was shown already', async () => {
    localStorage.setItem(KEY, '1.1.0')
    await shell()
    // the changelog has loaded once the menu's label is there; give the effect its turn
    await screen.findByTestId('version')
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('dialog', { name: "What's new" })).toBeNull()
  })
})
