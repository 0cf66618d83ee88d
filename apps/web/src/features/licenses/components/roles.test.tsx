import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LicenseView, Role } from '@portal/domain'
import { groupView, json, licenseListAnswer, licenseView, mockApi, profile, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

function serve(role: Role, license: LicenseView) {
  mockApi({
    ...signedInRoutes({ profile: { ...profile({ options: { ...profile().client_info.options, corporate_member: true } }), role } }),
    'GET /api/license/': (c) => licenseListAnswer([license], c.url),
    'GET /api/license/5/': () => json(200, license),
  })
}

describe('a license as each role sees it', () => {
  it('a viewer reads the license but is offered no rename or revoke; a developer is', async () => {
    // a license made from a group and never activated: revocable
    const license = licenseView({ id: 5, title: 'Kiosk', group_id: 9, group: 'Nuitrack group #9' })
    setLogged()
    serve('viewer', license)
    const view = renderApp('/app/nuitrack/dashboard/5/info/')
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Kiosk')
    expect(screen.queryByRole('button', { name: 'Edit title' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Manage' })).toBeNull()
    view.unmount()

    serve('developer', license)
    renderApp('/app/nuitrack/dashboard/5/info/')
    expect(await screen.findByRole('button', { name: 'Edit title' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Manage' })).toHaveTextContent('Revoke the license')
  })
})

describe('what a viewer is not offered', () => {
  it('sees a license’s devices with no Release, and the group keys with no Create or Save', async () => {
    const device = {
      id: 1,
      kind: 'online' as const,
      name: 'Lobby kiosk',
      signature_properties: { serial: null, sensor_name: null, reg: null },
      fingerprint: 'fp-1',
      first_seen: '2026-11-22T12:00:00.000Z',
      last_seen: null,
    }
    const license = licenseView({ id: 5, title: 'Kiosk', activations: [device] })
    const nuitrack = { product: 'nuitrack_subscribe', config: { product: 'nuitrack_subscribe' } }
    const source = groupView({ id: 9, title: 'Nuitrack subscription', ...nuitrack, limit: 5, total: 6 })
    const key = groupView({ id: 20, title: 'Lab key', ...nuitrack, is_default: false, source_group_id: 9, token: 'GKEY-2020', limit: 3, used_licenses: 1 })
    setLogged()
    mockApi({
      ...signedInRoutes({ profile: { ...profile({ options: { ...profile().client_info.options, corporate_member: true } }), role: 'viewer' } }),
      'GET /api/license/': (c) => licenseListAnswer([license], c.url),
      'GET /api/license/5/': () => json(200, license),
      'GET /api/group/': () => json(200, { groups: [source, key], unactivated_licenses: 0 }),
    })
    const view = renderApp('/app/nuitrack/dashboard/5/info/')
    const devices = await screen.findByRole('region', { name: 'Devices' })
    expect(await within(devices).findByText('fp-1')).toBeInTheDocument()
    expect(within(devices).queryByRole('button', { name: 'Release' })).toBeNull()
    view.unmount()

    const keys = renderApp('/app/group-keys/')
    expect(await screen.findByRole('link', { name: 'Lab key' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create a group key' })).toBeNull()
    keys.unmount()

    renderApp('/app/group-keys/20/group-key-info/')
    expect(await screen.findByLabelText('Available licenses')).toBeDisabled()
    expect(within(screen.getByRole('region', { name: 'Available in Lab key' })).getByRole('button', { name: 'Save' })).toBeDisabled()
  })
})
