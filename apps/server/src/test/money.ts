import { COOKIES, CSRF_HEADER, TRANSACTION_STATUS, TRANSACTION_TYPE, type ExternalPaymentSource } from '@portal/domain'
import type { AppContext } from '../context.ts'
import type { Db } from '../db/db.ts'
import { applyLedgerEntry, balanceAndLedgerSum } from '../modules/billing/queries.ts'
import { insertTransaction, nextInvoiceNumber, setProviderSession } from '../modules/transactions/queries.ts'

/** A browser over real HTTP: keeps cookies and echoes the CSRF cookie on POST (the harness's Agent, with fetch). */
export class HttpAgent {
  cookies = new Map<string, string>()
  readonly base: string

  constructor(base: string) {
    this.base = base
  }

  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  private headers(): Record<string, string> {
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
  }

  async get(path: string, accept = 'application/json') {
    return this.remember(await fetch(new URL(path, this.base), { headers: { ...this.headers(), accept }, redirect: 'manual' }))
  }

  async post(path: string, body?: unknown) {
    if (!this.cookies.has(COOKIES.csrf)) await this.get('/api/health/')
    const headers: Record<string, string> = { ...this.headers(), [CSRF_HEADER]: this.cookies.get(COOKIES.csrf)! }
    if (body !== undefined) headers['content-type'] = 'application/json'
    return this.remember(
      await fetch(new URL(path, this.base), { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' }),
    )
  }
}

export const TOP_UP = { success_url: '/app/nuitrack/balance-purchase-success/?next=%2Fapp%2Fnuitrack%2F', cancel_url: '/app/nuitrack/' }

/** A client's balance and its ledger's sum, and the state of one transaction. */
export async function moneyState(db: Db, clientId: number, transactionId?: number) {
  const { balance, ledger } = await balanceAndLedgerSum(db, clientId)
  const [t] = transactionId
    ? await db.query<{ status: number; invoice_number: number | null; payment_method: string | null }>(
        'SELECT status, invoice_number, payment_method FROM transactions WHERE id = $1',
        [transactionId],
      )
    : []
  return { balance, ledger, status: t?.status, invoice: t?.invoice_number ?? null, method: t?.payment_method ?? null }
}

/** A staff credit straight into the ledger, as balance:adjust makes one. */
export async function credit(db: Db, clientId: number, cents: number) {
  await db.transaction(async (tx) => {
    const row = await insertTransaction(tx, {
      clientId,
      type: TRANSACTION_TYPE.credit,
      status: TRANSACTION_STATUS.ok,
      amountCents: cents,
      kind: 'adjustment',
      description: 'Test credit',
      lines: [],
      paymentSource: 'staff',
      reason: 'test',
      invoiceNumber: await nextInvoiceNumber(tx),
    })
    await applyLedgerEntry(tx, clientId, row.id, cents)
  })
}

/**
 * A pending top-up of the client's with its checkout opened at the provider that serves `source`
 * (what the add-funds call does, without the HTTP around it): the transaction and the provider's
 * session, whose id the provider's events and captures name.
 */
export async function openTopUpCheckout(
  ctx: AppContext,
  db: Db,
  opts: {
    clientId: number
    email: string
    source: ExternalPaymentSource
    amountCents: number
    expiresAt: Date
    mode?: 'payment' | 'subscription'
    successUrl?: string
    cancelUrl?: string
  },
) {
  const tx = await insertTransaction(db, {
    clientId: opts.clientId,
    type: 0,
    status: 1,
    amountCents: opts.amountCents,
    kind: 'top_up',
    description: 'Balance top-up',
    lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: opts.amountCents }],
    paymentSource: opts.source,
    expiresAt: opts.expiresAt,
    invoiceNumber: null,
  })
  const session = await ctx.payments.forSource(opts.source).createCheckout({
    transactionId: tx.id,
    source: opts.source,
    mode: opts.mode ?? 'payment',
    lines: tx.lines,
    amountCents: opts.amountCents,
    customerEmail: opts.email,
    successUrl: opts.successUrl ?? 'http://portal.test/app/nuitrack/balance-purchase-success/',
    cancelUrl: opts.cancelUrl ?? 'http://portal.test/app/nuitrack/',
    expiresAt: tx.expires_at!,
  })
  await setProviderSession(db, tx.id, session.provider, session.sessionId)
  return { tx, session }
}
