import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, type Member, type ProfileResponse, type Role } from '@portal/domain'
import { cardLabels } from '../../../test/card-table.ts'
import { json, mockApi, profile, renderApp, setLogged, signedInRoutes, type Call } from '../../../test/utils.tsx'

const corporate = (role: Role): ProfileResponse => ({
  ...profile({ options: { ...profile().client_info.options, corporate_member: true }, email: 'acme@example.com' }),
  role,
  acting_person: role === 'owner' ? null : 'dev@example.com',
})

const member = (over: Partial<Member>): Member => ({ member_id: 7, email: 'acme@example.com', name: '', role: 'owner', founder: true, you: true, ...over })
const MEMBERS = {
  members: [member({}), member({ member_id: 8, email: 'dev@example.com', role: 'developer', founder: false, you: false })],
  invitations: [{ id: 3, email: 'new@example.com', role: 'viewer' as const, expires_at: '2026-12-13T10:00:00.000Z' }],
}

describe('the members screen', () => {
  it('an owner invites by e-mail with a role, changes a role and removes a member', async () => {
    setLogged()
    const calls: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: corporate('owner') }),
      'GET /api/org/members/': () => json(200, MEMBERS),
      'POST /api/org/invitations/': (c) => {
        calls.push(c)
        return json(200, {
          ...MEMBERS,
          invitations: [...MEMBERS.invitations, { id: 4, email: 'pat@example.com', role: 'billing', expires_at: '2026-12-13T10:00:00.000Z' }],
        })
      },
      'POST /api/org/members/:memberId/role/': (c) => {
        calls.push(c)
        return json(200, { ...MEMBERS, members: [MEMBERS.members[0], { ...MEMBERS.members[1], role: 'viewer' }] })
      },
      'POST /api/org/members/:memberId/remove/': (c) => {
        calls.push(c)
        return json(200, { ...MEMBERS, members: [MEMBERS.members[0]] })
      },
    })
    renderApp('/app/members/')
    const user = userEvent.setup()
    const table = await screen.findByRole('table', { name: 'Members' })
    expect(within(table).getAllByTestId('member-row')).toHaveLength(2)
    // every card line carries its column's name
    for (const row of cardLabels(table)) for (const cell of row) if (cell.label !== null) expect(cell.label).toBe(cell.header)
    // the account's own sign-in cannot be removed; the developer can
    const [own, dev] = within(table).getAllByTestId('member-row')
    expect(within(own!).queryByRole('button', { name: 'Remove' })).toBeNull()

    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'pat@example.com')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Billing')
    await user.click(screen.getByRole('button', { name: 'Send invitation' }))
    await waitFor(() => expect(calls[0]?.body).toEqual({ email: 'pat@example.com', role: 'billing' }))
    expect(await screen.findByText('pat@example.com')).toBeInTheDocument()

    await user.selectOptions(within(dev!).getByRole('combobox', { name: 'Role of dev@example.com' }), 'Viewer')
    await waitFor(() => expect(calls[1]).toMatchObject({ params: { memberId: '8' }, body: { role: 'viewer' } }))

    await user.click(within(dev!).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(within(table).getAllByTestId('member-row')).toHaveLength(1))
    expect(calls[2]?.params).toEqual({ memberId: '8' })
  })

  it('refuses to leave the organisation without an owner, next to the member', async () => {
    setLogged()
    mockApi({
      ...signedInRoutes({ profile: corporate('owner') }),
      'GET /api/org/members/': () => json(200, MEMBERS),
      'POST /api/org/members/:memberId/role/': () => json(409, { error_code: ERRORS.last_owner.code, error: ERRORS.last_owner.message }),
    })
    renderApp('/app/members/')
    const user = userEvent.setup()
    const [own] = await screen.findAllByTestId('member-row')
    await user.selectOptions(within(own!).getByRole('combobox', { name: 'Role of acme@example.com' }), 'Developer')
    expect(await within(own!).findByRole('alert')).toHaveTextContent(ERRORS.last_owner.message)
  })

  it('a developer sees the members and roles but no means to change them, and no Add funds', async () => {
    setLogged()
    mockApi({ ...signedInRoutes({ profile: corporate('developer') }), 'GET /api/org/members/': () => json(200, MEMBERS) })
    renderApp('/app/members/')
    const table = await screen.findByRole('table', { name: 'Members' })
    expect(within(table).getAllByTestId('member-row')).toHaveLength(2)
    expect(screen.queryByRole('form', { name: 'Invite a member' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull()
    expect(within(table).getByText('Developer')).toBeInTheDocument()
    // the balance is shown, but adding funds is not offered
    expect(await screen.findByTestId('balance')).toBeInTheDocument()
    expect(screen.queryByText('Add funds')).toBeNull()
    expect(screen.queryByRole('link', { name: 'Payment documents' })).toBeNull()
  })

  it('a personal account is told to switch to corporate first', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/members/')
    expect(await screen.findByTestId('members-personal')).toHaveTextContent('Switch to a corporate account')
  })
})
