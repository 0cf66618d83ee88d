import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { OrgsAnswer } from '@portal/domain'
import { json, mockApi, profile, renderApp, setLogged, signedInRoutes, type Call } from '../../../test/utils.tsx'

const ORGS: OrgsAnswer = {
  person: { id: 7, email: 'ann@example.com' },
  orgs: [
    { id: 7, name: 'ann@example.com', role: 'owner', corporate: false, current: true },
    { id: 20, name: 'Acme', role: 'developer', corporate: true, current: false },
  ],
}

describe('the account menu', () => {
  it('lists the accounts the person acts in and switches to another, dropping what was cached', async () => {
    setLogged()
    const switched: Call[] = []
    let current = 7
    mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () =>
        json(
          200,
          current === 7
            ? profile()
            : {
                ...profile({ email: 'acme@example.com', name: '', last_name: '', options: { ...profile().client_info.options, corporate_member: true } }),
                role: 'developer',
                acting_person: 'ann@example.com',
              },
        ),
      'GET /api/org/': () => json(200, ORGS),
      'POST /api/org/switch/': (c) => {
        switched.push(c)
        current = 20
        return json(200, { ...ORGS, orgs: ORGS.orgs.map((o) => ({ ...o, current: o.id === 20 })) })
      },
    })
    const app = renderApp('/app/account/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }))
    const menu = await screen.findByTestId('account-menu-dropdown')
    expect(within(menu).getByText('Signed in as ann@example.com')).toBeInTheDocument()
    const items = await within(menu).findAllByTestId('switch-account')
    expect(items.map((i) => i.textContent)).toEqual([expect.stringContaining('ann@example.com'), expect.stringContaining('Acme')])
    expect(items[0]).toHaveAttribute('aria-current', 'true')
    await user.click(items[1]!)
    await waitFor(() => expect(switched[0]?.body).toEqual({ org_id: 20 }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
    // the profile is asked for again: the header names the organisation and the role there
    expect(await screen.findByTestId('current-role')).toHaveTextContent('Developer')
    expect(screen.getByTestId('display-name')).toHaveTextContent('acme@example.com')
    expect(screen.queryByText('Add funds')).toBeNull()
  })
})
