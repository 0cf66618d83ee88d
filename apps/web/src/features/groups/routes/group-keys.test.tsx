import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, type GroupView } from '@portal/domain'
import { groupView, json, licenseView, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'
import { unlabelledColumns } from '../../../test/card-table.ts'

const source = groupView({
  id: 9,
  title: 'Nuitrack subscription',
  product: 'nuitrack_subscribe',
  config: { product: 'nuitrack_subscribe' },
  limit: 5,
  total: 6,
})
const key = groupView({
  id: 20,
  title: 'Lab key',
  product: 'nuitrack_subscribe',
  config: { product: 'nuitrack_subscribe' },
  is_default: false,
  source_group_id: 9,
  token: 'GKEY-2020',
  used_licenses: 1,
  limit: 3,
})

/** A group server: a split moves licenses from the source into a new key. */
function serve(groups: GroupView[], split?: () => Response) {
  let current = groups
  return mockApi({
    ...signedInRoutes({ licenses: [licenseView({ id: 30, title: 'From the key', from_custom_group: true, group: 'Lab key', group_id: 20 })] }),
    'GET /api/group/': () => json(200, { groups: current, unactivated_licenses: 0 }),
    'POST /api/group/:id/split/': (c) => {
      const answer = split?.()
      if (answer) return answer
      const { title, limit } = c.body as { title: string; limit: number }
      const dest = groupView({ ...key, id: 21, title, limit, used_licenses: 0, token: 'GKEY-2121' })
      const src = { ...source, limit: source.limit - limit }
      current = [src, ...current.filter((g) => g.id !== src.id), dest]
      return json(200, { dest_group: dest, source_group: src })
    },
  })
}

describe('group keys', () => {
  it('lists the keys with their key and counts, and the licenses made from keys', async () => {
    setLogged()
    serve([source, key])
    renderApp('/app/group-keys/')
    const row = await screen.findByTestId('group-key-row')
    expect(within(row).getByRole('link', { name: 'Lab key' })).toHaveAttribute('href', '/app/group-keys/20/group-key-info/')
    expect(row).toHaveTextContent('GKEY-2020')
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(-2)
        .map((c) => c.textContent),
    ).toEqual(['1', '3'])
    // on a phone a key is a card headed by its name, each other line named by its column
    expect(unlabelledColumns(row.closest('table')!)).toEqual(['Name'])
    const user = userEvent.setup()
    await user.click(screen.getByRole('tab', { name: 'Licenses (1)' }))
    expect(await screen.findByRole('link', { name: 'From the key' })).toHaveAttribute('href', '/app/nuitrack/dashboard/30/info/')
  })

  it('without a source group the create button is disabled and the page says why', async () => {
    setLogged()
    serve([key])
    renderApp('/app/group-keys/')
    expect(await screen.findByRole('button', { name: 'Create a group key' })).toBeDisabled()
    expect(screen.getByText(/You have none available right now/)).toBeInTheDocument()
  })

  it('creates a key: the size rules of the domain, then the split and the new key page', async () => {
    setLogged()
    const calls = serve([source, key])
    const app = renderApp('/app/group-keys/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Create a group key' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create a group key' })
    const size = within(dialog).getByLabelText('Number of licenses')
    // an emptied size field shows the default again, so a new size replaces the selected text
    const retype = async (input: HTMLElement, value: string) => {
      await user.tripleClick(input)
      await user.keyboard(value)
    }
    expect(size).toHaveValue('2')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByText('This field is required')).toBeInTheDocument()

    const name = within(dialog).getByLabelText('Name', { selector: 'input' })
    await user.click(name)
    await user.paste('k'.repeat(257))
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    // the field is a name: its error says so
    expect(within(dialog).getByText('The name must be at most 256 characters')).toBeInTheDocument()
    await user.clear(name)
    await user.type(name, 'Kiosks')
    await retype(size, '1')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByText('A group must contain 2 or more licenses')).toBeInTheDocument()
    await retype(size, '6')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByText('There are only 5 licenses available to add')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    await retype(size, '3')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/group-keys/21/group-key-info/'))
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/api/group/9/split/', body: { title: 'Kiosks', limit: 3 } })
    expect(await screen.findByRole('heading', { level: 1, name: 'Kiosks' })).toBeInTheDocument()
  })

  it("shows the server's group_limit answer on the form, without the error modal", async () => {
    setLogged()
    serve([source, key], () => json(400, { error_code: ERRORS.group_limit.code, error: ERRORS.group_limit.message, field: 'limit' }))
    renderApp('/app/group-keys/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Create a group key' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create a group key' })
    await user.type(within(dialog).getByLabelText('Name', { selector: 'input' }), 'Kiosks')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByText(ERRORS.group_limit.message)).toBeInTheDocument()
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
  })

  it("puts the server's refusal of a new size on the size field of the key's page", async () => {
    setLogged()
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/group/': () => json(200, { groups: [source, key], unactivated_licenses: 0 }),
      'POST /api/group/:id/resize/': () =>
        json(400, { error_code: ERRORS.source_group_limit_reached.code, error: ERRORS.source_group_limit_reached.message, field: 'limit' }),
    })
    renderApp('/app/group-keys/20/group-key-info/')
    const count = await screen.findByLabelText('Available licenses')
    const user = userEvent.setup()
    await user.tripleClick(count)
    await user.keyboard('2')
    await user.click(within(screen.getByRole('region', { name: 'Available in Lab key' })).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(count).toHaveAccessibleDescription(expect.stringContaining(ERRORS.source_group_limit_reached.message)))
    expect(calls.find((c) => c.url === '/api/group/20/resize/')!.body).toEqual({ limit: 2 })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('says which purchases make group keys, with a copy button for each key', async () => {
    setLogged()
    serve([source, key])
    renderApp('/app/group-keys/')
    const note = await screen.findByTestId('group-key-sources')
    expect(note).toHaveTextContent('Nuitrack subscription (group keys)')
    expect(note).toHaveTextContent('Nuitrack Unlimited (enterprise keys)')
    expect(note).toHaveTextContent('Nuitrack Pro, AI and trial licenses do not make group keys')
    expect(note).not.toHaveTextContent('You have none available right now')
    expect(within(screen.getByTestId('group-key-row')).getByRole('button', { name: 'Copy the key of Lab key' })).toBeInTheDocument()
  })

  it("the key's page has a copy button and says how a device uses the key", async () => {
    setLogged()
    serve([source, key])
    renderApp('/app/group-keys/20/group-key-info/')
    expect(await screen.findByTestId('group-key')).toHaveTextContent('GKEY-2020')
    expect(screen.getByRole('button', { name: 'Copy the group key' })).toBeInTheDocument()
    expect(screen.getByTestId('group-key-use')).toHaveTextContent('every new device gets a license of its own from this key')
  })
})
