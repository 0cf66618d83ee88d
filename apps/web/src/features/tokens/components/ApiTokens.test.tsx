import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { TokenView } from '@portal/domain'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'
import { unlabelledColumns } from '../../../test/card-table.ts'

const token = (over: Partial<TokenView> = {}): TokenView => ({
  id: 1,
  name: 'Provisioning',
  scope: 'manage',
  hint: 'lp_AbCdE',
  created_at: '2026-12-01T10:00:00.000Z',
  expires_at: '2027-03-01T10:00:00.000Z',
  last_used_at: '2026-12-05T09:30:00.000Z',
  revoked_at: null,
  state: 'active',
  ...over,
})
const SECRET = 'lp_' + 'Z'.repeat(43)
// the account screen is a lazy route: its first render waits for its chunks to load
const panel = () => screen.findByRole('region', { name: 'API tokens' }, { timeout: 15_000 })

describe('the API tokens panel', () => {
  it('creates a token and shows it once, with a Copy button that copies it', async () => {
    setLogged()
    let tokens: TokenView[] = []
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/account/tokens/': () => json(200, { tokens }),
      'POST /api/account/tokens/': (c) => {
        const body = c.body as { name: string; scope: 'read' | 'manage' }
        tokens = [token({ id: 2, name: body.name, scope: body.scope, hint: SECRET.slice(0, 8), expires_at: null, last_used_at: null })]
        return json(201, { token: tokens[0], secret: SECRET })
      },
    })
    renderApp('/app/account/')
    const region = await panel()
    expect(await within(region).findByText('No tokens yet.')).toBeInTheDocument()
    const user = userEvent.setup()
    // the name is required, checked by the same schema as the server's
    await user.click(within(region).getByRole('button', { name: 'Create token' }))
    expect(await within(region).findByText('This field is required')).toBeInTheDocument()
    await user.type(within(region).getByLabelText('Token name'), 'Kiosk script')
    await user.selectOptions(within(region).getByLabelText('Scope'), 'Manage')
    await user.selectOptions(within(region).getByLabelText('Expires after'), 'Never')
    await user.click(within(region).getByRole('button', { name: 'Create token' }))
    const shown = await within(region).findByTestId('new-token')
    expect(within(shown).getByTestId('new-token-value')).toHaveTextContent(SECRET)
    expect(shown).toHaveTextContent('Copy it now: it will not be shown again.')
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Kiosk script', scope: 'manage', expires_in_days: null })
    await user.click(within(shown).getByRole('button', { name: 'Copy' }))
    expect(await navigator.clipboard.readText()).toBe(SECRET)
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeInTheDocument()
    // listed by its hint, never the token; once dismissed the token is gone from the page
    const row = await within(region).findByTestId('token-row')
    expect(row).toHaveTextContent('Kiosk script')
    expect(row).toHaveTextContent(`${SECRET.slice(0, 8)}…`)
    expect(row).toHaveTextContent('Never used')
    await user.click(within(shown).getByRole('button', { name: 'Done' }))
    expect(within(region).queryByTestId('new-token')).toBeNull()
    expect(document.body.textContent).not.toContain(SECRET)
  })

  it('lists tokens with their last use and revokes one after a confirmation', async () => {
    setLogged()
    let tokens = [token(), token({ id: 3, name: 'Old CI', scope: 'read', state: 'expired', expires_at: '2026-11-01T00:00:00.000Z' })]
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/account/tokens/': () => json(200, { tokens }),
      'POST /api/account/tokens/:id/revoke/': (c) => {
        tokens = tokens.map((t) => (String(t.id) === c.params.id ? { ...t, state: 'revoked', revoked_at: '2026-12-06T10:00:00.000Z' } : t))
        return json(200, { status: 'ok', token: tokens[0] })
      },
    })
    renderApp('/app/account/')
    const region = await panel()
    const rows = await within(region).findAllByTestId('token-row')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Manage')
    expect(rows[0]).toHaveTextContent(/Dec 05, 2026, \d{1,2}:\d{2} (AM|PM)/)
    expect(rows[1]).toHaveTextContent('Read only')
    expect(rows[1]).toHaveTextContent('Expired')
    // an expired token has nothing to revoke
    expect(within(rows[1]!).queryByRole('button', { name: /Revoke/ })).toBeNull()
    expect(unlabelledColumns(within(region).getByRole('table'))).toEqual(['Name', 'Actions'])
    const user = userEvent.setup()
    await user.click(within(rows[0]!).getByRole('button', { name: 'Revoke Provisioning' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' })
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(within(region).getAllByTestId('token-row')[0]).toHaveTextContent('Revoked'))
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/account/tokens/1/revoke/'])
    expect(within(within(region).getAllByTestId('token-row')[0]!).queryByRole('button', { name: /Revoke/ })).toBeNull()
  })
})
