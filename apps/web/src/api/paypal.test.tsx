import { renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi } from '../test/utils.tsx'
import { usePaypalReturnCapture } from './paypal.ts'

/** The page PayPal returns to captures the order once; a refused funding source goes back to PayPal. */

let assign: ReturnType<typeof vi.fn>
beforeEach(() => {
  assign = vi.fn()
  // jsdom's location cannot navigate; the hook leaves the app through assign()
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as unknown as Location)
})
afterEach(() => vi.restoreAllMocks())

const returnedWith =
  (search: string) =>
  ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[`/done/${search}`]}>{children}</MemoryRouter>

describe('usePaypalReturnCapture', () => {
  it('captures the order named by ?token= once, then stops capturing', async () => {
    const api = mockApi({ 'POST /api/paypal/capture-payment/': () => json(200, { status: 'ok', transaction_id: 5, transaction_status: 'ok' }) })
    const { result } = renderHook(() => usePaypalReturnCapture(), { wrapper: returnedWith('?token=5O190127TN364715T') })
    expect(result.current.capturing).toBe(true)
    await waitFor(() => expect(result.current.capturing).toBe(false))
    expect(api.map((c) => c.body)).toEqual([{ order_id: '5O190127TN364715T' }])
    expect(assign).not.toHaveBeenCalled()
  })

  it('PayPal refused the funding source: back to its approval page to choose another', async () => {
    const approve = 'https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T'
    mockApi({
      'POST /api/paypal/capture-payment/': () => json(200, { status: 'ok', transaction_id: 5, transaction_status: 'pending', approve_url: approve }),
    })
    const { result } = renderHook(() => usePaypalReturnCapture(), { wrapper: returnedWith('?token=5O190127TN364715T') })
    await waitFor(() => expect(assign).toHaveBeenCalledWith(approve))
    // the page keeps showing that it is busy while the browser leaves
    expect(result.current.capturing).toBe(true)
  })
})
