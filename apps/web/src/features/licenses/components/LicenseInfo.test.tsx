import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, LICENSE_TITLE_MAX, productTitle, type LicenseView } from '@portal/domain'
import { errorStore } from '../../../lib/error-store.ts'
import { json, licenseView, mockApi, renderApp, setLogged, signedInRoutes, licenseListAnswer } from '../../../test/utils.tsx'

const INFO = '/app/nuitrack/dashboard/5/info/'

/** A license server: GET answers the current license, a rename changes it. */
function serve(initial: LicenseView, rename?: () => Response) {
  let current = initial
  const calls = mockApi({
    ...signedInRoutes(),
    'GET /api/license/': (c) => licenseListAnswer([current], c.url),
    'GET /api/license/5/': () => json(200, current),
    'POST /api/license/5/': (c) => rename?.() ?? json(200, (current = { ...current, title: (c.body as { title: string }).title.trim() })),
    'POST /api/license/5/release/': () => json(200, { status: 'ok' }),
  })
  return calls
}

const heading = () => screen.findByRole('heading', { level: 1 })

describe('license info', () => {
  it('shows the title, state, product, key and group', async () => {
    setLogged()
    serve(licenseView({ id: 5, title: 'Kiosk', token: 'KKKK-5555', group: 'Nuitrack group #1' }))
    renderApp(INFO)
    expect(await heading()).toHaveTextContent('Kiosk')
    const details = screen.getByRole('region', { name: 'Details' })
    expect(within(details).getByTestId('license-key')).toHaveTextContent('KKKK-5555')
    expect(details).toHaveTextContent(productTitle('nuitrack_ai_perpetual'))
    expect(details).toHaveTextContent('Nuitrack group #1')
    expect(within(screen.getByRole('heading', { level: 1 }).parentElement!).getByTestId('status-badge')).toHaveTextContent('New')
  })

  it('edits the title: the domain rule first, then the saved title in the heading', async () => {
    setLogged()
    const calls = serve(licenseView({ id: 5, title: 'Kiosk' }))
    renderApp(INFO)
    await heading()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Edit title' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit the title' })
    const input = within(dialog).getByLabelText('Title', { selector: 'input' })
    fireEvent.change(input, { target: { value: 'x'.repeat(LICENSE_TITLE_MAX + 1) } })
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByText(`The title must be at most ${LICENSE_TITLE_MAX} characters`)).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    await user.clear(input)
    await user.type(input, 'Front desk')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Front desk'))
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ title: 'Front desk' })
    // the answer went into the cache: the license is not read again; its history (a new line) is
    const gets = calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/license/'))
    expect(gets.filter((c) => !c.url.endsWith('/history/'))).toHaveLength(1)
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/license/5/history/')).toHaveLength(2))
  })

  it("puts the server's bad_title answer on the field, without the error modal", async () => {
    setLogged()
    serve(licenseView({ id: 5, title: 'Kiosk' }), () => json(400, { error_code: ERRORS.bad_title.code, error: 'Invalid title', field: 'title' }))
    renderApp(INFO)
    await heading()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Edit title' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit the title' })
    await user.type(within(dialog).getByLabelText('Title', { selector: 'input' }), ' 2')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText(ERRORS.bad_title.message)).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: /error/i })).toBeNull()
  })

  it('revokes an unactivated license after asking, and returns to the dashboard', async () => {
    setLogged()
    const calls = serve(licenseView({ id: 5, title: 'Kiosk', token: 'KKKK-5555', group: 'Nuitrack group #1' }))
    const app = renderApp(INFO)
    await heading()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Revoke the license' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this license?' })
    expect(dialog).toHaveTextContent('The key KKKK-5555 stops existing and its place returns to the group Nuitrack group #1')
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/license/5/release/'])
  })

  it('an activated license cannot be revoked and says how to move it', async () => {
    setLogged()
    serve(licenseView({ id: 5, activation_date: '2026-11-22T13:00:00.000Z', state: 'active', license_status: 'active' }))
    renderApp(INFO)
    await heading()
    expect(screen.queryByRole('button', { name: 'Revoke the license' })).toBeNull()
    expect(screen.getByText(/An activated license stays bound/)).toBeInTheDocument()
  })

  it('a license that does not exist shows the error dialog and goes back to the dashboard', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/nuitrack/dashboard/404/info/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
    expect(await screen.findByRole('dialog')).toHaveTextContent('License not found')
    errorStore.close()
  })
})
