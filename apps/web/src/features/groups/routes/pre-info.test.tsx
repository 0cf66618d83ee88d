import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SUPPORT_EMAIL } from '@portal/domain'
import {
  faceGroupView,
  faceLicenseView,
  groupView,
  json,
  mockApi,
  profile,
  renderApp,
  seededPrices,
  setLogged,
  signedInRoutes,
  licenseListAnswer,
} from '../../../test/utils.tsx'

describe('pre-info: generating a license from a group', () => {
  it('the last license of a group lands on its info page and stays there', async () => {
    setLogged()
    let limit = 1
    const made = faceLicenseView({ id: 41, title: 'Face SDK offline #41', group_id: 9 })
    mockApi({
      ...signedInRoutes(),
      'GET /api/group/': () =>
        json(200, { groups: [faceGroupView({ limit, total: 1, used_licenses: 1 - limit, has_available_license: limit > 0 })], unactivated_licenses: 0 }),
      'POST /api/group/9/new-license/': () => {
        limit = 0
        return json(200, made)
      },
      'GET /api/license/': (c) => licenseListAnswer(limit ? [] : [made], c.url),
      'GET /api/license/41/': () => json(200, made),
    })
    const app = renderApp('/app/face/dashboard/9/pre-info/')
    fireEvent.click(await screen.findByRole('button', { name: 'Generate the key' }))

    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/41/info/'))
    // the info page's first render is slow on a loaded machine (the default second was not always enough)
    expect(await screen.findByRole('heading', { level: 1, name: 'Face SDK offline #41' }, { timeout: 5000 })).toBeInTheDocument()
    // success is said (and announced: Mantine notifications are alerts)
    expect(await screen.findByText('License generated')).toBeInTheDocument()
    // the group lists refetch (limit 0 now) and nothing moves the user on or shows an error
    await waitFor(() => expect(app.queryClient.getQueryData<{ groups: { limit: number }[] }>(['groups'])?.groups[0]?.limit).toBe(0))
    await new Promise((r) => setTimeout(r, 100))
    expect(app.location().pathname).toBe('/app/face/dashboard/41/info/')
    expect(screen.queryByText('This group has no license available to generate')).toBeNull()
  })

  it('an empty group still sends the user back to the dashboard with the reason', async () => {
    setLogged()
    mockApi(signedInRoutes({ groups: [faceGroupView({ limit: 0, has_available_license: false })] }))
    const app = renderApp('/app/face/dashboard/9/pre-info/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
    expect(await screen.findByText('This group has no license available to generate')).toBeInTheDocument()
  })
})

describe('pre-info: the group upgrade to AI', () => {
  const proGroup = (over: Parameters<typeof groupView>[0] = {}) =>
    groupView({
      id: 12,
      title: 'Pro group #12',
      product: 'old',
      config: { product: 'old' },
      limit: 3,
      used_licenses: 1,
      total: 4,
      has_available_license: true,
      upgradeable: { toAI: 'self' },
      ...over,
    })

  it('a group upgradeable to AI by itself links to its upgrade-y checkout', async () => {
    setLogged()
    mockApi(signedInRoutes({ groups: [proGroup()] }))
    renderApp('/app/nuitrack/dashboard/12/pre-info/')
    expect(await screen.findByRole('link', { name: 'Upgrade to AI' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/upgrade-y/pro/12/')
    expect(screen.getByRole('button', { name: 'Generate the key' })).toBeEnabled()
  })

  it('suggests a group key only for a group that makes them', async () => {
    setLogged()
    mockApi(
      signedInRoutes({
        groups: [proGroup(), proGroup({ id: 13, title: 'Subscription group', product: 'nuitrack_subscribe', config: { product: 'nuitrack_subscribe' } })],
      }),
    )
    const app = renderApp('/app/nuitrack/dashboard/12/pre-info/')
    expect(await screen.findByText('Generate an activation key for one Nuitrack device.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'group key' })).toBeNull()
    app.unmount()
    renderApp('/app/nuitrack/dashboard/13/pre-info/')
    expect(await screen.findByRole('link', { name: 'group key' })).toHaveAttribute('href', '/app/group-keys/')
  })

  it('on hold (?holded, or the group says so): the upgrade and the generation are disabled', async () => {
    setLogged()
    mockApi(signedInRoutes({ groups: [proGroup()] }))
    const view = renderApp('/app/nuitrack/dashboard/12/pre-info/?holded')
    expect(await screen.findByRole('button', { name: 'Upgrade to AI' })).toBeDisabled()
    expect(screen.queryByRole('link', { name: 'Upgrade to AI' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Generate the key' })).toBeDisabled()
    expect(screen.getByText('Licenses of this group are on hold while an upgrade completes (about 15 minutes).')).toBeInTheDocument()
    view.unmount()

    mockApi(signedInRoutes({ groups: [proGroup({ holded_limit: 1, held_until: new Date(Date.now() + 60_000).toISOString() })] }))
    renderApp('/app/nuitrack/dashboard/12/pre-info/')
    expect(await screen.findByRole('button', { name: 'Upgrade to AI' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Generate the key' })).toBeDisabled()
  })

  it('a group upgraded by support has no checkout, only the way to support; other groups have no upgrade', async () => {
    setLogged()
    mockApi(signedInRoutes({ profile: { ...profile(), prices: seededPrices() }, groups: [proGroup({ upgradeable: { toAI: 'bySupport' } })] }))
    const view = renderApp('/app/nuitrack/dashboard/12/pre-info/')
    expect(await screen.findByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
    expect(screen.queryByRole('link', { name: 'Upgrade to AI' })).toBeNull()
    // as on the license screen: the mail to support with the group named, and what the upgrade costs
    const mail = screen.getByRole('link', { name: `write to ${SUPPORT_EMAIL}` })
    expect(mail.getAttribute('href')).toMatch(new RegExp(`^mailto:${SUPPORT_EMAIL}\\?subject=Upgrade%20of%20group%20%2312%20to%20Nuitrack%20AI&body=`))
    expect(await screen.findByTestId('upgrade-cost')).toHaveTextContent('The upgrade to Nuitrack AI costs $99.90 a license.')
    view.unmount()

    mockApi(signedInRoutes({ groups: [faceGroupView()] }))
    renderApp('/app/face/dashboard/9/pre-info/')
    expect(await screen.findByRole('button', { name: 'Generate the key' })).toBeInTheDocument()
    expect(screen.queryByText('Upgrade to AI')).toBeNull()
  })
})
