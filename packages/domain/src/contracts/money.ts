import { z } from '../zod.ts'
import { contract, okSchema } from '../contract.ts'
import { EXTERNAL_PAYMENT_SOURCES, PAYMENT_PROVIDERS, TRANSACTION_STATUSES, appReturnPath, topUpAmount } from '../money.ts'
import { text } from '../fields.ts'
import { queryInt } from '../license-list.ts'

/** What a payment call answers: where the customer pays (the provider's checkout) and the transaction it will complete. */
export const paymentSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  provider_data: z.object({
    session_id: z.string(),
    /** the provider's hosted checkout: the browser goes there */
    url: z.string(),
  }),
})

export const refillBody = z.object({
  success_url: appReturnPath,
  cancel_url: appReturnPath,
  amount: topUpAmount,
  payment_source: z.enum(EXTERNAL_PAYMENT_SOURCES).default('stripe'),
})

export const transactionSchema = z.object({
  id: z.number(),
  creation_date: z.string(),
  dates: z.object({ createdDate: z.string() }),
  status: z.enum(TRANSACTION_STATUSES),
  /** 0 ok, 1 pending, 2 declined, 3 expired */
  status_code: z.number(),
  /** USD, 2 decimals */
  amount: z.number(),
  /** 0 credit, 1 debit */
  type: z.number(),
  description: z.string(),
  /** how it was paid, once known: "Visa •••• 4242", "PayPal", "Balance" */
  payment_method: z.string().nullable(),
  invoice_number: z.number().nullable(),
  /** for paid ones: GET it for the PDF */
  invoice_url: z.string().nullable(),
})
export type TransactionView = z.infer<typeof transactionSchema>

/** The most transactions one page of the payment documents holds. */
export const TRANSACTION_PAGE_MAX = 200

/** Which payment documents: a status, a creation window, a page. Without any, all of them. */
export const transactionListQuery = z.object({
  status: z.enum(['all', ...TRANSACTION_STATUSES]).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe('created at or after this instant (ISO 8601)'),
  to: z.iso.datetime({ offset: true }).optional().describe('created before this instant (ISO 8601)'),
  offset: queryInt(0, 1_000_000_000).optional(),
  limit: queryInt(1, TRANSACTION_PAGE_MAX)
    .optional()
    .describe(`transactions in the page, 1-${TRANSACTION_PAGE_MAX}; without it every transaction that matches, from offset`),
})
export type TransactionListQuery = z.output<typeof transactionListQuery>

/** A credit note: the document that corrects a paid transaction's invoice when its money was taken back. */
export const creditNoteSchema = z.object({
  id: z.number(),
  /** CN-000001: its own gapless series */
  number: z.string(),
  /** the invoice it corrects (INV-000042) */
  corrects_invoice: z.string(),
  transaction_id: z.number(),
  /** refund, dispute or reversal (a provider took the payment back) */
  kind: z.enum(['refund', 'dispute', 'reversal']),
  /** USD, 2 decimals, taken back */
  amount: z.number(),
  reason: z.string(),
  issued_at: z.string(),
  /** a dispute closed in the merchant's favour: what it suspended is restored */
  restored: z.boolean(),
  /** GET it for the PDF */
  pdf_url: z.string(),
})
export type CreditNoteView = z.infer<typeof creditNoteSchema>

const sessionParams = z.object({ session_id: text().max(200) })
const idParams = z.object({ id: text() })
const redirectSchema = z.object({ redirect_url: z.string() })

export const sandboxSessionSchema = z.object({
  id: z.string(),
  source: z.enum(EXTERNAL_PAYMENT_SOURCES),
  merchant: z.string(),
  customer_email: z.string(),
  lines: z.array(z.object({ description: z.string(), quantity: z.number(), amount: z.number() })),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(['open', 'pending', 'paid', 'declined', 'cancelled', 'expired']),
})

/** Top-up, payment documents and invoices, the payment providers' webhooks and the sandbox provider's checkout. */
export const moneyContracts = {
  balanceRefill: contract({
    method: 'POST',
    path: '/balance/refill/',
    auth: 'client',
    permission: 'money',
    tags: ['balance'],
    summary: 'Top up the balance: answers the provider checkout to send the customer to; the balance grows when the provider confirms the payment',
    body: refillBody,
    response: { 200: z.object({ payment: paymentSchema, transaction_id: z.number() }) },
    errors: ['external_payments_unavailable'],
    fieldErrors: { amount: 'refill_amount', success_url: 'return_url_invalid', cancel_url: 'return_url_invalid' },
  }),
  paypalCapture: contract({
    method: 'POST',
    path: '/paypal/capture-payment/',
    auth: 'client',
    permission: 'money',
    tags: ['payments'],
    summary: 'Capture a PayPal order the customer approved (the sync after approval); applying it is idempotent',
    body: z.object({ order_id: text().min(1).max(100) }),
    response: {
      200: okSchema.extend({
        transaction_id: z.number(),
        transaction_status: z.enum(TRANSACTION_STATUSES),
        // PayPal refused the buyer's funding source: the browser goes back to PayPal to choose another
        approve_url: z.url().optional(),
      }),
    },
    errors: ['not_found', 'external_payments_unavailable'],
  }),

  transactionList: contract({
    method: 'GET',
    path: '/transaction/',
    auth: 'client',
    bearer: true,
    permission: 'documents',
    tags: ['transactions'],
    summary:
      "The client's payment documents: the transactions (of a status, created in a window, one page of them with `limit` and `offset`) and the credit notes correcting their invoices, newest first, and what is owed. `total` counts the transactions that match",
    query: transactionListQuery,
    response: {
      200: z.object({
        transactions: z.array(transactionSchema),
        /** the transactions matching the status and window, over every page */
        total: z.number().int(),
        // (defaults: an answer of a server without refunds reads as none)
        credit_notes: z.array(creditNoteSchema).default([]),
        /** USD: a refunded top-up's spent credit, paid by the next top-up */
        owed: z.number().default(0),
      }),
    },
    errors: [],
  }),
  transactionInvoice: contract({
    method: 'GET',
    path: '/transaction/:id/invoice/',
    auth: 'client',
    bearer: true,
    permission: 'documents',
    tags: ['transactions'],
    summary: 'The invoice of a paid transaction, as a PDF attachment invoice-{id}.pdf',
    params: idParams,
    // a PDF, not JSON
    response: {},
    rawAnswers: { 200: { description: 'invoice-{id}.pdf, an attachment', mediaType: 'application/pdf' } },
    errors: ['not_found'],
  }),

  transactionCreditNote: contract({
    method: 'GET',
    path: '/transaction/credit-note/:id/',
    auth: 'client',
    bearer: true,
    permission: 'documents',
    tags: ['transactions'],
    summary: 'A credit note of the client as a PDF attachment CN-000001.pdf',
    params: idParams,
    // a PDF, not JSON
    response: {},
    rawAnswers: { 200: { description: 'CN-000001.pdf, an attachment', mediaType: 'application/pdf' } },
    errors: ['not_found'],
  }),

  paymentWebhookSandbox: contract({
    method: 'POST',
    path: '/payments/webhook/sandbox/',
    auth: 'public',
    tags: ['payments'],
    summary: 'The sandbox provider reports a checkout paid, declined or cancelled (HMAC-SHA256 of the raw body in X-Sandbox-Signature)',
    response: { 200: z.object({ received: z.literal(true) }) },
    errors: ['webhook_signature'],
  }),
  paymentWebhookStripe: contract({
    method: 'POST',
    path: '/payments/webhook/stripe/',
    auth: 'public',
    tags: ['payments'],
    summary:
      'Stripe events (checkout.session.completed, expired, async payment failed), verified by the Stripe-Signature header; 404 where Stripe is not configured, 503 while STRIPE_WEBHOOK_SECRET is missing',
    response: { 200: z.object({ received: z.literal(true) }) },
    errors: ['webhook_signature', 'external_payments_unavailable', 'route_not_found'],
  }),

  paymentWebhookPaypal: contract({
    method: 'POST',
    path: '/payments/webhook/paypal/',
    auth: 'public',
    tags: ['payments'],
    summary:
      "PayPal events (PAYMENT.CAPTURE.COMPLETED, DENIED, REFUNDED, REVERSED, VAULT.PAYMENT-TOKEN.DELETED), verified by PayPal's verify-webhook-signature call with PAYPAL_WEBHOOK_ID; 404 where PayPal is not configured, 503 while PAYPAL_WEBHOOK_ID is missing",
    response: { 200: z.object({ received: z.literal(true) }) },
    errors: ['webhook_signature', 'external_payments_unavailable', 'route_not_found'],
  }),

  sandboxSession: contract({
    method: 'GET',
    path: '/sandbox/checkout/:session_id/',
    auth: 'public',
    tags: ['sandbox'],
    summary: "The sandbox provider's checkout: merchant, lines and total (development and staging only)",
    params: sessionParams,
    response: { 200: sandboxSessionSchema },
    errors: ['route_not_found'],
  }),
  sandboxPay: contract({
    method: 'POST',
    path: '/sandbox/checkout/:session_id/pay/',
    auth: 'public',
    tags: ['sandbox'],
    summary:
      'Pay (or, with outcome decline, decline; with outcome pending, pay but hold it for review until sandbox:settle) a sandbox checkout, a card one with a test card (card_number): the sandbox sends its signed webhook (a held payment when it is settled) and answers where the browser goes next',
    params: sessionParams,
    // card checkouts: the test card paid with (4242 4242 4242 4242 when left out)
    body: z.object({ outcome: z.enum(['pay', 'decline', 'pending']).default('pay'), card_number: z.string().max(40).optional() }),
    response: { 200: redirectSchema },
    errors: ['route_not_found', 'payment_closed'],
  }),
  sandboxCancel: contract({
    method: 'POST',
    path: '/sandbox/checkout/:session_id/cancel/',
    auth: 'public',
    tags: ['sandbox'],
    summary: 'Cancel a sandbox checkout: answers the cancel address',
    params: sessionParams,
    response: { 200: redirectSchema },
    errors: ['route_not_found', 'payment_closed'],
  }),
} as const
