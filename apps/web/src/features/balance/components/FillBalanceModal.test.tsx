import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERRORS } from '@portal/domain'
import { fillBalanceStore, openFillBalance } from '../../../lib/fill-balance.ts'
import { json, mockApi, renderApp, setLogged, signedInRoutes, type Answer } from '../../../test/utils.tsx'
import { startingAmount } from './FillBalanceModal.tsx'

const checkout = (id = 'cs_1') =>
  json(200, { payment: { provider: 'sandbox', provider_data: { session_id: id, url: `/sandbox/checkout/${id}/` } }, transaction_id: 41 })

let assign: ReturnType<typeof vi.fn>
beforeEach(() => {
  assign = vi.fn()
  // jsdom's location cannot navigate; the modal leaves the app through assign()
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as unknown as Location)
})
afterEach(() => fillBalanceStore.close())

async function openFromMenu(path = '/app/face/dashboard/', refill: Answer = () => checkout()) {
  setLogged()
  const calls = mockApi({ ...signedInRoutes(), 'POST /api/balance/refill/': refill })
  const app = renderApp(path)
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: /Add funds/ }))
  const dialog = await screen.findByRole('dialog', { name: 'Add funds' })
  return { app, user, dialog, calls, amount: within(dialog).getByLabelText('Amount, USD') as HTMLInputElement }
}

describe('fill-balance modal', () => {
  it('opens from the balance card with 100, the minimum of 20 and the current balance', async () => {
    const { dialog, amount } = await openFromMenu()
    expect(amount).toHaveValue('100')
    expect(amount).toHaveAccessibleDescription('Minimum amount: $20.00')
    expect(within(dialog).getByText('Current balance: $12.50')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'PayPal' })).toBeEnabled()
  })

  it('below the minimum the minimum turns red and both pay buttons are disabled', async () => {
    const { dialog, amount, user } = await openFromMenu()
    const minimum = within(dialog).getByText('Minimum amount: $20.00')
    expect(minimum).toHaveAttribute('data-below', 'false')
    await user.clear(amount)
    await user.type(amount, '19')
    expect(minimum).toHaveAttribute('data-below', 'true')
    expect(minimum).toHaveStyle({ color: 'var(--mantine-color-error)' })
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'PayPal' })).toBeDisabled()
    await user.clear(amount)
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeDisabled()
    await user.type(amount, '20')
    expect(minimum).toHaveAttribute('data-below', 'false')
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeEnabled()
  })

  it('takes whole dollars of at most 6 digits', async () => {
    const { amount, user } = await openFromMenu()
    await user.clear(amount)
    await user.type(amount, '1x234567890')
    expect(amount).toHaveValue('123456')
  })

  it('refuses cents in words next to the field, never joining them into the dollars', async () => {
    const { dialog, amount, user } = await openFromMenu()
    // the field has the focus when the dialog opens, its prefilled 100 selected: what is typed replaces it
    await waitFor(() => expect(amount).toHaveFocus())
    await user.keyboard('25.50')
    expect(amount).toHaveValue('25.50')
    expect(amount).toHaveAccessibleDescription(/Whole dollars only: enter the amount without cents/)
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'PayPal' })).toBeDisabled()
    expect(within(dialog).getByTestId('whole-dollars')).toHaveTextContent('.00')
    await user.clear(amount)
    await user.type(amount, '25')
    expect(amount).toHaveValue('25')
    expect(amount).not.toHaveAccessibleDescription(/Whole dollars only/)
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeEnabled()
  })

  it('pays by card: the refill body names the platform pages, then the browser goes to the checkout', async () => {
    const { dialog, amount, user, calls } = await openFromMenu('/app/face/dashboard/?tab=new')
    await user.clear(amount)
    await user.type(amount, '150')
    await user.click(within(dialog).getByRole('button', { name: 'Pay by card' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/checkout/cs_1/'))
    const refill = calls.find((c) => c.url === '/api/balance/refill/')!
    expect(refill.body).toEqual({
      amount: 150,
      payment_source: 'stripe',
      success_url: `/app/face/balance-purchase-success/?next=${encodeURIComponent('/app/face/dashboard/?tab=new')}`,
      cancel_url: '/app/face/dashboard/?topup=not-paid',
    })
  })

  it('pays with PayPal from a page without a platform on the nuitrack pages; the button is busy while it waits', async () => {
    let answer!: (r: Response) => void
    const { dialog, user, calls } = await openFromMenu('/app/payment-doc/', () => new Promise<Response>((r) => (answer = r)))
    await user.click(within(dialog).getByRole('button', { name: 'PayPal' }))
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'PayPal' })).toHaveAttribute('data-loading', 'true'))
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeDisabled()
    answer(checkout('pp_9'))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/checkout/pp_9/'))
    expect(calls.find((c) => c.url === '/api/balance/refill/')!.body).toEqual({
      amount: 100,
      payment_source: 'paypal',
      success_url: `/app/nuitrack/balance-purchase-success/?next=${encodeURIComponent('/app/payment-doc/')}`,
      cancel_url: '/app/nuitrack/dashboard/?topup=not-paid',
    })
  })

  it('an error answer without a code says the payment system is unavailable, in the modal', async () => {
    const { dialog, user } = await openFromMenu('/app/face/dashboard/', () => json(502, { error: 'bad gateway' }))
    await user.click(within(dialog).getByRole('button', { name: 'Pay by card' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(ERRORS.external_payments_unavailable.message)
    expect(screen.queryByText('An error occurred during the operation')).not.toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('button', { name: 'Pay by card' })).toBeEnabled()
  })

  it('a refused amount shows next to the amount field', async () => {
    const { amount, dialog, user } = await openFromMenu('/app/face/dashboard/', () =>
      json(400, { error_code: ERRORS.refill_amount.code, error: ERRORS.refill_amount.message, field: 'amount' }),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Pay by card' }))
    await waitFor(() => expect(amount).toHaveAccessibleDescription(expect.stringContaining(ERRORS.refill_amount.message)))
    expect(amount).toHaveAttribute('aria-invalid', 'true')
  })

  it('another error goes to the error modal', async () => {
    const { dialog, user } = await openFromMenu('/app/face/dashboard/', () =>
      json(400, { error_code: ERRORS.return_url_invalid.code, error: ERRORS.return_url_invalid.message }),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Pay by card' }))
    expect(await screen.findByText(ERRORS.return_url_invalid.message)).toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
  })

  it('closes on Escape', async () => {
    const { user } = await openFromMenu()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add funds' })).not.toBeInTheDocument())
  })

  it('opened for a purchase, the shortfall is the default and the minimum', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/nuitrack/dashboard/')
    await screen.findByTestId('balance')
    act(() => openFillBalance({ shortfallCents: 4_512 }))
    const dialog = await screen.findByRole('dialog', { name: 'Add funds' })
    const amount = within(dialog).getByLabelText('Amount, USD')
    // $45.12 short: whole dollars, rounded up
    expect(amount).toHaveValue('46')
    expect(within(dialog).getByText('Minimum amount: $46.00')).toBeInTheDocument()
    expect(within(dialog).getByText('Your balance is short of this purchase by $45.12.')).toBeInTheDocument()
  })
})

describe('the starting amount', () => {
  it('is 100, the shortfall (at least 20), or the asked amount as asked (the field says when it is below the minimum)', () => {
    expect(startingAmount({})).toBe(100)
    expect(startingAmount({ shortfallCents: 500 })).toBe(20)
    expect(startingAmount({ shortfallCents: 12_001 })).toBe(121)
    expect(startingAmount({ amount: 250 })).toBe(250)
    expect(startingAmount({ amount: 5 })).toBe(5)
    expect(startingAmount({ amount: 30, shortfallCents: 5_000 })).toBe(30)
  })
})
