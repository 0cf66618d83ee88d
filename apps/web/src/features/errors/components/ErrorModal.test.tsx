import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api } from '../../../lib/api-client.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { json, mockApi, renderApp } from '../../../test/utils.tsx'

async function failWith(response: () => Response | Promise<Response>, opts?: Parameters<typeof api.get>[1]) {
  mockApi({ 'GET /api/thing/': response })
  let caught: unknown
  await act(async () => {
    await api.get('/api/thing/', opts).catch((e: unknown) => {
      caught = e
    })
  })
  return caught
}

const dialog = () => screen.findByRole('dialog')

describe('error modal (spec section 8)', () => {
  // the store is a module singleton: every test starts with the modal closed
  beforeEach(() => errorStore.close())

  it('unauthorized: asks to log in again and the button leads to the login page', async () => {
    const app = renderApp('/app/login/')
    await failWith(() => json(401, { error_code: '1920e203', error: 'Unauthorized user AnonymousUser' }))
    const d = await dialog()
    expect(d).toHaveTextContent('Looks like you are not authorized. Please, try to login again.')
    mockApi({ 'GET /api/client/logout/': () => json(200, { status: 'ok' }) })
    await userEvent.setup().click(within(d).getByRole('button', { name: 'Go to login' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/login/'))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('a call naming a codeless error: an answer without a code, or no JSON at all, is that error (a refill: external_payments_unavailable)', async () => {
    renderApp('/app/login/')
    for (const answer of [() => json(502, { error: 'bad gateway' }), () => new Response('<html>502</html>', { status: 502 })]) {
      const err = (await failWith(answer, { codeless: 'external_payments_unavailable', handle: ['external_payments_unavailable'] })) as ApiError
      expect(err).toBeInstanceOf(ApiError)
      expect(err.code).toBe('external_payments_unavailable')
      expect(err.shown).toBe(false)
    }
    expect(screen.queryByRole('dialog')).toBeNull()
    // not handled by the caller: the modal says it
    await failWith(() => json(503, {}), { codeless: 'external_payments_unavailable' })
    expect(await dialog()).toHaveTextContent('The payment system is unavailable. Please try again later')
  })

  it('missing error_code: generic text', async () => {
    renderApp('/app/login/')
    await failWith(() => json(500, { detail: 'boom' }))
    expect(await dialog()).toHaveTextContent('Something went wrong, please try again later.')
  })

  it('known code: translated message, the operation title and an OK button that closes it', async () => {
    renderApp('/app/login/')
    await failWith(() => json(409, { error_code: '50484dd7', error: 'server text' }))
    const d = await dialog()
    expect(within(d).getByRole('heading', { name: 'An error occurred during the operation' })).toBeInTheDocument()
    expect(d).toHaveTextContent('Limit of 10 unactivated licenses reached. Activate some of your licenses first')
    const ok = within(d).getByRole('button', { name: 'OK' })
    await waitFor(() => expect(ok).toHaveFocus())
    await userEvent.setup().click(ok)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('Escape closes it (keyboard only)', async () => {
    renderApp('/app/login/')
    await failWith(() => json(409, { error_code: '50484dd7', error: 'x' }))
    await dialog()
    await userEvent.setup().keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('unknown code: the internal server error text', async () => {
    renderApp('/app/login/')
    await failWith(() => json(400, { error_code: 'deadbeef', error: 'whatever' }))
    expect(await dialog()).toHaveTextContent('Something went wrong, please try again later.')
  })

  it('a code the caller handles is passed to it, with no modal', async () => {
    renderApp('/app/login/')
    const err = await failWith(() => json(400, { error_code: '3fc79796', error: 'x', field: 'password' }), { handle: ['wrong_password'] })
    expect(err).toMatchObject({ code: '3fc79796', field: 'password', shown: false })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('an answer that is not JSON: internal server error', async () => {
    renderApp('/app/login/')
    await failWith(() => new Response('<html>502</html>', { status: 502 }))
    expect(await dialog()).toHaveTextContent('Something went wrong, please try again later.')
  })

  it('network failure: shown only once it has lasted 2 seconds', async () => {
    renderApp('/app/login/')
    const started = Date.now()
    await failWith(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900)
    expect(await dialog()).toHaveTextContent('Some network error has occurred. Please check your Internet connection.')
  })

  it('network failure that recovers within 2 seconds: no modal', async () => {
    renderApp('/app/login/')
    let n = 0
    const fetch = vi.fn(() => (++n < 3 ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(json(200, { ok: 1 }))))
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch
    let got: unknown
    await act(async () => {
      got = await api.get('/api/thing/')
    })
    expect(got).toEqual({ ok: 1 })
    expect(screen.queryByRole('dialog')).toBeNull()
    errorStore.close()
  })
})
