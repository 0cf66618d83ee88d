import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** POST /api/paypal/capture-payment/: the sync after the customer approved a PayPal order (PayPal returns with ?token=ORDER_ID). */
export const capturePaypalOrder = (orderId: string) => call(contractCalls.paypalCapture, { body: { order_id: orderId } })

/**
 * On a page PayPal returns to (a top-up's or a purchase's success page): captures the approved order
 * named by ?token= once (section 4: a sync after approval). Answers whether the capture is running.
 * A failed capture has shown the error modal; the order stays pending and a later sync applies it.
 * A refused funding source sends the buyer back to PayPal's approval page of the same order.
 */
export function usePaypalReturnCapture(): { capturing: boolean } {
  const [search] = useSearchParams()
  const order = search.get('token')
  const [capturing, setCapturing] = useState(order !== null)
  const started = useRef(false)
  useEffect(() => {
    if (!order || started.current) return
    started.current = true
    capturePaypalOrder(order)
      .then((result) => {
        // PayPal refused the funding source: back to PayPal to choose another, then here again
        if (result.approve_url) window.location.assign(result.approve_url)
        else setCapturing(false)
      })
      .catch(() => setCapturing(false))
  }, [order])
  return { capturing }
}
