import { contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** POST /api/paypal/capture-payment/: the sync after the customer approved a PayPal order (PayPal returns with ?token=ORDER_ID). */
export const capturePaypalOrder = (orderId: string) => call(contracts.paypalCapture, { body: { order_id: orderId } })
