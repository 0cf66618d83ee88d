import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { fillBalanceStore } from '../../../lib/fill-balance.ts'
import { json, mockApi, profile, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'
import { amountParam } from './add-funds.tsx'

afterEach(() => fillBalanceStore.close())

describe('/app/{platform}/add-funds/', () => {
  it('opens the modal with the amount of the link, then shows the dashboard', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const app = renderApp('/app/face/add-funds/?amount=250')
    const dialog = await screen.findByRole('dialog', { name: 'Add funds' })
    expect(within(dialog).getByLabelText('Amount, USD')).toHaveValue('250')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
  })

  it('?amount=5 prefills 5 with the minimum in red and payment disabled, never a silent 100', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/nuitrack/add-funds/?amount=5')
    const dialog = await screen.findByRole('dialog', { name: 'Add funds' })
    expect(within(dialog).getByLabelText('Amount, USD')).toHaveValue('5')
    expect(within(dialog).getByText('Minimum amount: $20.00')).toHaveAttribute('data-below', 'true')
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeDisabled()
  })

  it('no amount, or one that is not whole dollars, starts at the default 100', async () => {
    for (const path of ['/app/nuitrack/add-funds/?amount=abc', '/app/nuitrack/add-funds/?amount=25.50', '/app/nuitrack/add-funds/']) {
      setLogged()
      mockApi(signedInRoutes())
      const app = renderApp(path)
      const dialog = await screen.findByRole('dialog', { name: 'Add funds' })
      expect(within(dialog).getByLabelText('Amount, USD')).toHaveValue('100')
      await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
      app.unmount()
      act(() => fillBalanceStore.close())
    }
  })

  it('reads whole dollars of up to 6 digits only', () => {
    expect(amountParam('150')).toBe(150)
    expect(amountParam(' 20 ')).toBe(20)
    expect(amountParam('1e3')).toBeUndefined()
    expect(amountParam('12.5')).toBeUndefined()
    expect(amountParam('1234567')).toBeUndefined()
    expect(amountParam(null)).toBeUndefined()
  })
})

describe('/app/{platform}/balance-purchase-success/', () => {
  function serve() {
    let balance = 12.5
    const calls = mockApi({ ...signedInRoutes(), 'GET /api/client/': () => json(200, profile({ balance })) })
    return { calls, credit: (usd: number) => (balance += usd) }
  }

  it('says the balance comes soon with a support link; closing reads the balance again and goes to ?next', async () => {
    setLogged()
    const { calls, credit } = serve()
    const app = renderApp(`/app/face/balance-purchase-success/?next=${encodeURIComponent('/app/group-keys/')}`)
    const dialog = await screen.findByRole('dialog', { name: 'Thank you for your payment' })
    expect(dialog).toHaveTextContent('Your balance will be topped up soon')
    expect(within(dialog).getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
    expect(await screen.findByTestId('balance')).toHaveTextContent('$12.50')
    const before = calls.filter((c) => c.url === '/api/client/').length
    credit(150)
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/group-keys/'))
    await waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent('$162.50'))
    expect(calls.filter((c) => c.url === '/api/client/').length).toBeGreaterThan(before)
  })

  it('while the top-up is pending it asks again every 2 s; once paid it reads the balance and says it', async () => {
    setLogged()
    let balance = 12.5
    let status: 'pending' | 'ok' = 'pending'
    const top = () => ({
      id: 41,
      creation_date: '2026-11-20T12:00:00.000Z',
      dates: { createdDate: '2026-11-20T12:00:00.000Z' },
      status,
      status_code: status === 'ok' ? 0 : 1,
      amount: 150,
      type: 0,
      description: 'Balance top-up',
      payment_method: null,
      invoice_number: null,
      invoice_url: null,
    })
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, profile({ balance })),
      'GET /api/transaction/': () => json(200, { transactions: [top()], total: 1, credit_notes: [], owed: 0 }),
    })
    renderApp('/app/nuitrack/balance-purchase-success/')
    const state = await screen.findByTestId('top-up-status')
    await waitFor(() => expect(state).toHaveTextContent('Waiting for the payment system to confirm the payment…'))
    // the webhook lands
    balance = 162.5
    status = 'ok'
    await waitFor(() => expect(state).toHaveTextContent('The payment is confirmed. Your balance is $162.50.'), { timeout: 4000 })
    expect(screen.getByTestId('balance')).toHaveTextContent('$162.50')
    // the newest transaction alone, twice: pending, then paid
    expect(calls.filter((c) => c.url.startsWith('/api/transaction/')).map((c) => c.url)).toEqual(['/api/transaction/?limit=1', '/api/transaction/?limit=1'])
  })

  it('back from PayPal (?token=): the order is captured once before the top-up is awaited', async () => {
    setLogged()
    const calls = mockApi({
      ...signedInRoutes(),
      'POST /api/paypal/capture-payment/': () => json(200, { status: 'ok', transaction_id: 41, transaction_status: 'ok' }),
    })
    renderApp('/app/nuitrack/balance-purchase-success/?token=5O190127TN364715T&PayerID=X')
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/paypal/capture-payment/').map((c) => c.body)).toEqual([{ order_id: '5O190127TN364715T' }]))
    await waitFor(() => expect(screen.getByTestId('top-up-status')).not.toHaveTextContent('Confirming your PayPal payment…'))
    expect(calls.filter((c) => c.url === '/api/paypal/capture-payment/')).toHaveLength(1)
  })

  it('without ?next, or with one outside the portal, closing goes to the dashboard', async () => {
    for (const next of [null, 'https://evil.example/app/', '//evil.example/app/', '/app/%2e%2e/admin']) {
      setLogged()
      serve()
      const app = renderApp(`/app/face-machine/balance-purchase-success/${next ? `?next=${encodeURIComponent(next)}` : ''}`)
      const dialog = await screen.findByRole('dialog', { name: 'Thank you for your payment' })
      await userEvent.setup().keyboard('{Escape}')
      await waitFor(() => expect(app.location().pathname).toBe('/app/face-machine/dashboard/'))
      // the router commits the new location before React has drawn the dashboard in its place
      await waitFor(() => expect(dialog).not.toBeInTheDocument())
      app.unmount()
    }
  })
})
