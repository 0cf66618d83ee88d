import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ERRORS, FACE_COMPONENTS, FACE_COMPONENT_NAMES } from '@portal/domain'
import { json, mockApi, profile, renderApp, setLogged, signedInRoutes, type Answer } from '../../../test/utils.tsx'

function backend(isStaff: boolean, create?: Answer) {
  return mockApi({
    ...signedInRoutes({ profile: profile({ is_staff: isStaff }) }),
    'GET /api/versions/face/': () => json(200, { facesdk_versions: [{ version: '3.24', is_default: true }] }),
    'GET /api/components/face/': () => json(200, { components: [...FACE_COMPONENTS] }),
    ...(create ? { 'POST /api/resource/custom/create/': create } : {}),
  })
}

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) })

describe('staff custom-license form', () => {
  it('an empty submit puts each error at its field, in words, and focuses the first', async () => {
    setLogged()
    const calls = backend(true)
    renderApp('/app/staff/custom-license/perpetual/')
    await screen.findByRole('heading', { name: 'Custom licenses' })
    fireEvent.change(field('Count'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))

    const title = field('Title')
    await waitFor(() => expect(title).toHaveAttribute('aria-invalid', 'true'))
    expect(title).toHaveAccessibleDescription('This field is required')
    expect(field('User e-mail')).toHaveAccessibleDescription('Please enter your email')
    expect(field('Count')).toHaveAccessibleDescription('Make at least 1 license')
    expect(title).toHaveFocus()
    // nothing raw at the bottom, and nothing sent
    expect(screen.getByTestId('staff-result')).toBeEmptyDOMElement()
    expect(document.body.textContent).not.toMatch(/field empty error|title:/)
    expect(calls.some((c) => c.url === '/api/resource/custom/create/')).toBe(false)

    // typing clears the field's error
    fireEvent.change(title, { target: { value: 'Door cameras' } })
    expect(title).not.toHaveAttribute('aria-invalid', 'true')
  })

  it('says the count the API allows at the Count field, and refuses more there', async () => {
    setLogged()
    const calls = backend(true)
    renderApp('/app/staff/custom-license/perpetual/')
    await screen.findByRole('heading', { name: 'Custom licenses' })
    const count = field('Count')
    expect(count).toHaveAttribute('maxlength', '4')
    expect(screen.getByTestId('count-limit')).toHaveTextContent('1 to 1,000')
    fireEvent.change(field('Title'), { target: { value: 'Door cameras' } })
    fireEvent.change(field('User e-mail'), { target: { value: 'buyer@example.com' } })
    fireEvent.change(count, { target: { value: '1001' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(count).toHaveAccessibleDescription('Make at most 1000 licenses at a time'))
    expect(calls.some((c) => c.url === '/api/resource/custom/create/')).toBe(false)
  })

  it('a subscription without validity says so at the Validity field; a bad e-mail at the e-mail', async () => {
    setLogged()
    backend(true)
    renderApp('/app/staff/custom-license/subscription/')
    await screen.findByRole('tab', { name: 'Custom subscription license', selected: true })
    fireEvent.change(field('Title'), { target: { value: 'Kiosks' } })
    fireEvent.change(field('User e-mail'), { target: { value: 'not-an-email' } })
    fireEvent.change(field('Validity'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(field('User e-mail')).toHaveAccessibleDescription('Incorrect email format'))
    expect(field('Validity')).toHaveAccessibleDescription('A subscription needs a validity period')
  })

  it('a server refusal naming a field lands at that field', async () => {
    setLogged()
    backend(true, () => json(400, { error_code: ERRORS.validation_failed.code, error: "A user with this e-mail doesn't exist", field: 'client_email' }))
    renderApp('/app/staff/custom-license/perpetual/')
    await screen.findByRole('heading', { name: 'Custom licenses' })
    fireEvent.change(field('Title'), { target: { value: 'Door cameras' } })
    fireEvent.change(field('User e-mail'), { target: { value: 'nobody@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(field('User e-mail')).toHaveAccessibleDescription("A user with this e-mail doesn't exist"))
  })

  it('labels the license content with the components’ names from the domain table', async () => {
    setLogged()
    backend(true)
    renderApp('/app/staff/custom-license/perpetual/')
    await screen.findByRole('textbox', { name: 'Age and gender estimator' })
    const content = screen.getByRole('heading', { name: 'License content' }).parentElement!
    for (const c of FACE_COMPONENTS.filter((x) => x !== 'desktop_gpu_support')) {
      expect(within(content).getByRole('textbox', { name: FACE_COMPONENT_NAMES[c] })).toBeInTheDocument()
    }
    expect(screen.getByRole('checkbox', { name: FACE_COMPONENT_NAMES.desktop_gpu_support })).toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/age gender estimator|video engine light/)
  })

  it('the subscription tab opens the subscription form at its own address', async () => {
    setLogged()
    backend(true)
    const app = renderApp('/app/staff/custom-license/perpetual/')
    fireEvent.click(await screen.findByRole('tab', { name: 'Custom subscription license' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/staff/custom-license/subscription/'))
    expect(await screen.findByRole('tab', { name: 'Custom subscription license', selected: true })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull()
  })

  it('a customer sees a plain staff-only screen, with no command line in it', async () => {
    setLogged()
    backend(false)
    renderApp('/app/staff/custom-license/perpetual/')
    expect(await screen.findByRole('heading', { level: 1, name: 'This page is for staff' })).toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/npm|staff:grant/)
    expect(screen.queryByRole('form', { name: 'Create custom licenses' })).toBeNull()
  })
})
