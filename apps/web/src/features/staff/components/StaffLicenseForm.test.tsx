import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, FACE_COMPONENT_NAMES, VALIDITY_UNITS } from '@portal/domain'
import { json, licenseView, mockApi, profile, renderApp, setLogged, signedInRoutes, type Answer } from '../../../test/utils.tsx'

function serve(
  create: Answer = (c) =>
    json(200, { licenses: Array.from({ length: (c.body as { count: number }).count }, (_, i) => licenseView({ id: 100 + i, type: 'face' })) }),
) {
  return mockApi({
    ...signedInRoutes({ profile: profile({ is_staff: true }) }),
    'GET /api/versions/face/': () => json(200, { facesdk_versions: [{ version: '3.20', is_default: true }] }),
    'GET /api/components/face/': () => json(200, { components: ['matcher', 'desktop_gpu_support'] }),
    'POST /api/resource/custom/create/': create,
  })
}

const form = () => screen.findByRole('form', { name: 'Create custom licenses' })
const lock = (name: string) => screen.getByRole('checkbox', { name })

async function fillBasics(user: ReturnType<typeof userEvent.setup>, f: HTMLElement) {
  await user.type(within(f).getByRole('textbox', { name: 'Title' }), 'Door cameras')
  await user.type(within(f).getByRole('textbox', { name: 'User e-mail' }), 'ann@example.com')
  await user.clear(within(f).getByRole('textbox', { name: 'Count' }))
  await user.type(within(f).getByRole('textbox', { name: 'Count' }), '2')
}

describe('staff custom licenses', () => {
  it('is for staff only, and asks nothing of the staff API', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/staff/custom-license/perpetual/')
    expect(await screen.findByRole('heading', { level: 1, name: 'This page is for staff' })).toBeInTheDocument()
    expect(screen.queryByRole('form')).toBeNull()
  })

  it('a lock of one kind disables the others (the domain interlock), and the order is sent as the schema wants it', async () => {
    setLogged()
    const calls = serve()
    renderApp('/app/staff/custom-license/perpetual/')
    const f = await form()
    const user = userEvent.setup()
    await fillBasics(user, f)
    await user.click(lock('Hardware (device request file)'))
    expect(lock('iOS app id')).toBeDisabled()
    expect(lock('USB token')).toBeDisabled()
    expect(lock('Platforms')).toBeDisabled()
    await user.type(await within(f).findByRole('textbox', { name: FACE_COMPONENT_NAMES.matcher }), '4')
    await user.click(within(f).getByRole('button', { name: 'Create' }))
    expect(await screen.findByTestId('staff-result')).toHaveTextContent('Added 2 license(s).')
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      title: 'Door cameras',
      count: 2,
      client_email: 'ann@example.com',
      config: {
        product: 'face_offline_perpetual',
        license_expire_delta: null,
        device_bound: true,
        max_version: null,
        license_content: { matcher: 4 },
        online: false,
        desktop_gpu_support: false,
      },
      custom_tags: {},
    })
  })

  it("shows the server's answer text, without the error modal", async () => {
    setLogged()
    serve(() => json(400, { error_code: ERRORS.client_not_found_by_email.code, error: ERRORS.client_not_found_by_email.message }))
    renderApp('/app/staff/custom-license/perpetual/')
    const f = await form()
    const user = userEvent.setup()
    await fillBasics(user, f)
    await user.click(within(f).getByRole('button', { name: 'Create' }))
    expect(await screen.findByTestId('staff-result')).toHaveTextContent(ERRORS.client_not_found_by_email.message)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('checks the order before sending: the count, and a subscription without a validity', async () => {
    setLogged()
    const calls = serve()
    renderApp('/app/staff/custom-license/subscription/')
    const f = await form()
    const user = userEvent.setup()
    await fillBasics(user, f)
    await user.clear(within(f).getByRole('textbox', { name: 'Count' }))
    await user.click(within(f).getByRole('button', { name: 'Create' }))
    // each error sits at its field
    await waitFor(() => expect(within(f).getByRole('textbox', { name: /^Count/ })).toHaveAccessibleDescription('Make at least 1 license'))

    await user.type(within(f).getByRole('textbox', { name: 'Count' }), '1')
    await user.clear(within(f).getByRole('textbox', { name: 'Validity' }))
    await user.click(within(f).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(within(f).getByRole('textbox', { name: /^Validity/ })).toHaveAccessibleDescription('A subscription needs a validity period'))
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    await user.type(within(f).getByRole('textbox', { name: 'Validity' }), '2')
    await user.click(within(f).getByRole('button', { name: 'Create' }))
    expect(await screen.findByTestId('staff-result')).toHaveTextContent('Added 1 license(s).')
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      config: { product: 'face_offline_custom', license_expire_delta: 2 * VALIDITY_UNITS.month },
    })
  })

  it('the tabs and the menu link lead to the two forms', async () => {
    setLogged()
    serve()
    const app = renderApp('/app/staff/custom-license/perpetual/')
    await form()
    const user = userEvent.setup()
    await user.click(screen.getByRole('tab', { name: 'Custom subscription license' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/staff/custom-license/subscription/'))
    expect(await form()).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Staff: custom licenses' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/staff/custom-license/perpetual/'))
    expect(await form()).toBeInTheDocument()
  })
})
