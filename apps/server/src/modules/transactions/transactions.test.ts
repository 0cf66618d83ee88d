import { describe, expect, it } from 'vitest'
import { ERRORS, contracts, formatInvoiceNumber } from '@portal/domain'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { pdfText } from '../../test/pdf.ts'
import { paidTopUp, pendingTopUp, settle } from '../../test/transactions.ts'
import { updateClientProfile } from '../account/queries.ts'
import { DEFAULT_SELLER, REVERSE_CHARGE_NOTE, invoiceSeller, renderInvoice, reverseChargeApplies, vatCountry } from './invoice.ts'
import { closeTransaction, insertCreditNote, insertTransaction, nextInvoiceNumber, recordInvoiceSeller } from './queries.ts'
import { settlementOf } from './service.ts'

const SELLER = { name: 'Seller Ltd.', address: '1 Example Road, Springfield', tax_id: 'US-TAX-777', email: 'invoices@seller.example', country: 'US' }
const t = useTestApp({ INVOICE_SELLER: JSON.stringify(SELLER) })

const ctx = () => t.app.ctx

/** a client with one transaction of each status, oldest first: paid, pending, declined, expired, paid */
async function clientWithHistory(profile?: Parameters<typeof updateClientProfile>[2]) {
  const you = await signedInClient(t)
  if (profile) await updateClientProfile(t.db, you.client.id, profile)
  const paid = await paidTopUp(t.db, you.client.id, 15_000)
  const pending = await pendingTopUp(t.db, you.client.id, 2_000)
  const declined = await pendingTopUp(t.db, you.client.id, 3_000)
  await settle(ctx(), declined.sessionId, 'declined')
  const expired = await pendingTopUp(t.db, you.client.id, 4_000)
  await t.db.transaction((tx) => closeTransaction(tx, expired.id, 3))
  const viaProvider = await pendingTopUp(t.db, you.client.id, 123_456)
  expect((await settle(ctx(), viaProvider.sessionId, 'paid', { amountCents: 123_456, paymentMethod: 'PayPal (buyer@example.com)' })).status).toBe('ok')
  return { ...you, ids: { paid: paid.id, pending: pending.id, declined: declined.id, expired: expired.id, viaProvider: viaProvider.id } }
}

describe('GET /api/transaction/', () => {
  it('pages and filters on the server: a status, a creation window, offset and limit, with the total that matches', async () => {
    const { agent, ids, client } = await clientWithHistory()
    // one a day, oldest first
    const oldestFirst = [ids.paid, ids.pending, ids.declined, ids.expired, ids.viaProvider]
    for (const [i, id] of oldestFirst.entries()) await t.db.query(`UPDATE transactions SET created_at = $2 WHERE id = $1`, [id, `2026-03-0${i + 1}T12:00:00Z`])
    // a credit note correcting the oldest invoice, which is on no page below but the last
    await t.db.transaction((tx) =>
      insertCreditNote(tx, {
        client_id: client.id,
        transaction_id: ids.paid,
        kind: 'refund',
        amount_cents: 1_000,
        reason: 'Goodwill',
        provider_ref: null,
        issued_at: new Date(),
      }),
    )
    const get = async (query: string) => {
      const res = await agent.get(`/api/transaction/?${query}`)
      expect(res.statusCode, res.body).toBe(200)
      const body = contracts.transactionList.response[200].parse(res.json())
      expect(body.credit_notes.map((n) => n.corrects_invoice)).toEqual([formatInvoiceNumber(1)])
      return { ids: body.transactions.map((x) => x.id), total: body.total }
    }
    expect(await get('limit=2')).toEqual({ ids: [ids.viaProvider, ids.expired], total: 5 })
    expect(await get('limit=2&offset=2')).toEqual({ ids: [ids.declined, ids.pending], total: 5 })
    expect(await get('limit=2&offset=4')).toEqual({ ids: [ids.paid], total: 5 })
    expect(await get('offset=9')).toEqual({ ids: [], total: 5 })
    expect(await get('status=ok')).toEqual({ ids: [ids.viaProvider, ids.paid], total: 2 })
    expect(await get('status=all&limit=1')).toEqual({ ids: [ids.viaProvider], total: 5 })
    // [from, to): the second day's start to the fourth day's noon, which is left out
    expect(await get(`from=${encodeURIComponent('2026-03-02T00:00:00Z')}&to=${encodeURIComponent('2026-03-04T12:00:00Z')}`)).toEqual({
      ids: [ids.declined, ids.pending],
      total: 2,
    })
    expect(await get(`status=declined&from=${encodeURIComponent('2026-03-03T13:00:00+02:00')}`)).toEqual({ ids: [ids.declined], total: 1 })
    // no query: every transaction, as the spec's call has always answered
    expect(await get('')).toEqual({ ids: [...oldestFirst].reverse(), total: 5 })
  })

  it('refuses a page or a filter it cannot read, with the field named', async () => {
    const { agent } = await signedInClient(t)
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['offset=-1', 'offset'],
      ['status=paid', 'status'],
      ['from=yesterday', 'from'],
      ['to=2026-03-01', 'to'],
    ] as const) {
      expectError(await agent.get(`/api/transaction/?${query}`), 400, ERRORS.validation_failed.code, field)
    }
  })

  it("answers the client's transactions newest first, each in the contract's shape with status in words and numbers", async () => {
    const { agent, ids } = await clientWithHistory()
    const res = await agent.get('/api/transaction/')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('private, no-store')
    const { transactions } = contracts.transactionList.response[200].parse(res.json())
    expect(transactions.map((x) => x.id)).toEqual([ids.viaProvider, ids.expired, ids.declined, ids.pending, ids.paid])
    expect(transactions.map((x) => [x.status, x.status_code])).toEqual([
      ['ok', 0],
      ['expired', 3],
      ['declined', 2],
      ['pending', 1],
      ['ok', 0],
    ])
    const [latest, expired, , pending, first] = transactions
    expect(latest).toEqual({
      id: ids.viaProvider,
      creation_date: latest!.creation_date,
      dates: { createdDate: latest!.creation_date },
      status: 'ok',
      status_code: 0,
      amount: 1234.56,
      type: 0,
      description: 'Balance top-up',
      payment_method: 'PayPal (buyer@example.com)',
      invoice_number: 2,
      invoice_url: `/api/transaction/${ids.viaProvider}/invoice/`,
    })
    expect(new Date(latest!.creation_date).toISOString()).toBe(latest!.creation_date)
    expect(first).toMatchObject({ amount: 150, invoice_number: 1, invoice_url: `/api/transaction/${ids.paid}/invoice/`, payment_method: 'Visa •••• 4242' })
    // only paid ones have an invoice
    for (const x of [expired!, pending!]) expect(x).toMatchObject({ invoice_number: null, invoice_url: null })
    expect(pending!.amount).toBe(20)
    // the dates run newest first
    const times = transactions.map((x) => Date.parse(x.creation_date))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
  })

  it('answers an empty list to a client with none, and nobody else sees them', async () => {
    await clientWithHistory()
    const other = await signedInClient(t)
    expect((await other.agent.get('/api/transaction/')).json()).toEqual({ transactions: [], total: 0, credit_notes: [], owed: 0 })
  })

  it('shows a debit with type 1 and its amount unsigned', async () => {
    const { agent, client } = await signedInClient(t)
    await paidTopUp(t.db, client.id, 10_000)
    await t.db.transaction(async (tx) =>
      insertTransaction(tx, {
        clientId: client.id,
        type: 1,
        status: 0,
        amountCents: 328,
        kind: 'adjustment',
        description: 'Balance adjustment (debit)',
        lines: [],
        paymentSource: 'staff',
        invoiceNumber: await nextInvoiceNumber(tx),
      }),
    )
    const [debit] = (await agent.get('/api/transaction/')).json().transactions
    expect(debit).toMatchObject({ type: 1, amount: 3.28, payment_method: 'Balance adjustment', status: 'ok' })
  })

  it('needs a session', async () => {
    const res = await new Agent(t.app).get('/api/transaction/')
    expect(res.statusCode).toBe(401)
  })
})

describe('GET /api/transaction/{id}/invoice/', () => {
  it("answers the PDF as an attachment named after the invoice's number, with seller, buyer, number, date, lines, total and payment method", async () => {
    const { agent, email, ids } = await clientWithHistory({ name: 'Ada', last_name: 'Lovelace' })
    const res = await agent.get(`/api/transaction/${ids.viaProvider}/invoice/`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toBe('attachment; filename="INV-000002.pdf"')
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    const text = await pdfText(res.rawPayload)
    for (const part of [SELLER.name, SELLER.address, `Tax ID: ${SELLER.tax_id}`, SELLER.email]) expect(text).toContain(part)
    expect(text).toContain('Ada Lovelace')
    expect(text).toContain(email)
    expect(text).toContain(`Invoice number: ${formatInvoiceNumber(2)}`)
    expect(text).toContain('INV-000002')
    const paidOn = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date())
    expect(text).toContain(`Date paid: ${paidOn}`)
    expect(text).toContain('Balance top-up')
    expect(text).toMatch(/Total \(USD\)\s+\$1,234\.56/)
    expect(text).toContain('Payment method: PayPal (buyer@example.com)')
    // a private buyer: no company block
    expect(text).not.toContain('Tax ID (VAT)')
  })

  it("prints a corporate buyer's company, address and tax id", async () => {
    const { agent, client } = await signedInClient(t)
    await updateClientProfile(t.db, client.id, {
      name: 'Grace',
      last_name: 'Hopper',
      options: { corporate_member: true },
      company: { name: 'Hopper Computing LLC', address: '42 Harbor Street, Arlington, VA', vat: 'VAT-DE-998877' },
    })
    const paid = await paidTopUp(t.db, client.id, 2_000_00)
    const text = await pdfText((await agent.get(`/api/transaction/${paid.id}/invoice/`)).rawPayload)
    expect(text).toContain('Hopper Computing LLC')
    expect(text).toContain('42 Harbor Street, Arlington, VA')
    expect(text).toContain('Tax ID (VAT): VAT-DE-998877')
    expect(text).toContain('Attn: Grace Hopper')
    expect(text).toMatch(/Total \(USD\)\s+\$2,000\.00/)
  })

  it('prints the default seller when INVOICE_SELLER is not set, over which the setting lays its fields', async () => {
    const { invoiceSeller, DEFAULT_SELLER } = await import('./invoice.ts')
    expect(invoiceSeller({ INVOICE_SELLER: undefined })).toEqual(DEFAULT_SELLER)
    expect(DEFAULT_SELLER.name).toBe('3DiVi Inc.')
    expect(invoiceSeller({ INVOICE_SELLER: { email: 'x@example.com' } })).toEqual({ ...DEFAULT_SELLER, email: 'x@example.com' })
  })

  it('never fails on names the font cannot draw: Łukasz 日本 with emoji prints, unknown glyphs as "?"', async () => {
    const { agent, client } = await signedInClient(t)
    await updateClientProfile(t.db, client.id, {
      name: 'Łukasz 日本 😀',
      last_name: 'Żółć Ωμέγα Привет',
      options: { corporate_member: true },
      company: { name: 'Zakład 東京 🚀', address: 'ul. Długa 5\n00-001 Warszawa', vat: 'PL 123' },
    })
    const paid = await paidTopUp(t.db, client.id, 5_000)
    const res = await agent.get(`/api/transaction/${paid.id}/invoice/`)
    expect(res.statusCode).toBe(200)
    const text = await pdfText(res.rawPayload)
    expect(text).toContain('Łukasz ?? 😀')
    expect(text).toContain('Żółć')
    expect(text).toContain('Ωμέγα Привет')
    expect(text).toContain('Zakład ?? ?')
    expect(text).toContain('ul. Długa 5')
    expect(text).toMatch(/\$50\.00/)
  })

  it('prints control characters as spaces and lone surrogates as "?", keeping line breaks', async () => {
    const { printable } = await import('./invoice.ts')
    expect(printable('a\u0000b\u0007c\u0085d')).toBe('a b c d')
    expect(printable('x\ud800y\udfffz')).toBe('x?y?z')
    expect(printable('one\ntwo')).toBe('one\ntwo')
    // DejaVu Sans has the emoticons block (😀) but no CJK and no pictographs (🚀, 🦄)
    expect(printable('日本😀Ł')).toBe('??😀Ł')
    expect(printable('🚀🦄')).toBe('??')
    expect(printable('x'.repeat(5000))).toHaveLength(1000)
  })

  it("answers 404 not_found for another client's invoice, an unpaid transaction and an id that is not one", async () => {
    const owner = await clientWithHistory()
    const stranger = await signedInClient(t)
    expectError(await stranger.agent.get(`/api/transaction/${owner.ids.paid}/invoice/`), 404, '63f560db')
    for (const id of [owner.ids.pending, owner.ids.declined, owner.ids.expired]) {
      expectError(await owner.agent.get(`/api/transaction/${id}/invoice/`), 404, '63f560db')
    }
    for (const bad of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', '%20', `${owner.ids.paid}x`, '999999']) {
      expectError(await owner.agent.get(`/api/transaction/${bad}/invoice/`), 404, '63f560db')
    }
    // the owner's own paid one still answers
    expect((await owner.agent.get(`/api/transaction/${owner.ids.paid}/invoice/`)).statusCode).toBe(200)
  })

  it('answers 500 internal_server_error when the PDF cannot be generated (a corrupt line), and the server goes on', async () => {
    const { agent, client } = await signedInClient(t)
    const paid = await paidTopUp(t.db, client.id, 9_900)
    await t.db.query(`UPDATE invoice_records SET lines = '[null]'::jsonb WHERE transaction_id = $1`, [paid.id])
    const res = await agent.get(`/api/transaction/${paid.id}/invoice/`)
    expectError(res, 500, 'internal_server_error')
    expect(res.json().error).toBe('Something went wrong, please try again later.')
    expect(res.headers['content-disposition']).toBeUndefined()
    expect((await agent.get('/api/transaction/')).statusCode).toBe(200)
    const fine = await paidTopUp(t.db, client.id, 100)
    expect((await agent.get(`/api/transaction/${fine.id}/invoice/`)).headers['content-type']).toBe('application/pdf')
  })

  it('needs a session', async () => {
    const { ids } = await clientWithHistory()
    expect((await new Agent(t.app).get(`/api/transaction/${ids.paid}/invoice/`)).statusCode).toBe(401)
  })
})

describe('an issued invoice is a record', () => {
  it('prints the same text after the buyer renames themselves and their company, and after the seller changes', async () => {
    const { agent, client } = await signedInClient(t)
    await updateClientProfile(t.db, client.id, {
      name: 'Grace',
      last_name: 'Hopper',
      options: { corporate_member: true },
      company: { name: 'Hopper Computing LLC', address: '42 Harbor Street', vat: 'DE998877665' },
    })
    const paid = await paidTopUp(t.db, client.id, 12_300)
    const download = async () => pdfText((await agent.get(`/api/transaction/${paid.id}/invoice/`)).rawPayload)
    const before = await download()
    expect(before).toContain('Hopper Computing LLC')
    await updateClientProfile(t.db, client.id, {
      name: 'Amazing',
      last_name: 'Grace',
      options: { corporate_member: false },
      company: { name: 'Renamed Corp', address: '1 Other Road', vat: 'FR111' },
    })
    await recordInvoiceSeller(t.db, { ...SELLER, name: 'Another Seller GmbH' })
    const after = await download()
    expect(after).toBe(before)
    expect(after).not.toContain('Renamed Corp')
    expect(after).not.toContain('Another Seller GmbH')
    // an invoice issued after the change prints the new facts
    const next = await paidTopUp(t.db, client.id, 100)
    const text = await pdfText((await agent.get(`/api/transaction/${next.id}/invoice/`)).rawPayload)
    expect(text).toContain('Another Seller GmbH')
    expect(text).toContain('Amazing Grace')
    expect(text).not.toContain('Hopper Computing LLC')
    await recordInvoiceSeller(t.db, invoiceSeller(t.app.ctx.config))
  })

  it("notes the reverse charge for a business buyer whose VAT id is of another country than the seller's", async () => {
    const invoiceOf = async (vat: string) => {
      const { agent, client } = await signedInClient(t)
      await updateClientProfile(t.db, client.id, { options: { corporate_member: true }, company: { name: 'Buyer BV', address: 'Amsterdam', vat } })
      const paid = await paidTopUp(t.db, client.id, 5_000)
      return pdfText((await agent.get(`/api/transaction/${paid.id}/invoice/`)).rawPayload)
    }
    // the seller is in the United States (the default country)
    const foreign = await invoiceOf('NL123456789B01')
    expect(foreign).toContain('Tax ID (VAT): NL123456789B01')
    expect(foreign).toContain(REVERSE_CHARGE_NOTE)
    expect(await invoiceOf('')).not.toContain('Reverse charge')
    expect(await invoiceOf('123456789')).not.toContain('Reverse charge')
  })

  it('reads the country of a VAT id from its prefix', () => {
    expect(vatCountry('DE 998877665')).toBe('DE')
    expect(vatCountry('el123')).toBe('GR')
    expect(vatCountry('12345')).toBeNull()
    const party = (country: string) => ({ ...DEFAULT_SELLER, country })
    const buyer = (vat: string) => ({ name: '', email: '', company: { name: 'B', address: '', vat } })
    expect(reverseChargeApplies({ seller: party('DE'), buyer: buyer('DE998877665') })).toBe(false)
    expect(reverseChargeApplies({ seller: party('DE'), buyer: buyer('FR12345678901') })).toBe(true)
    expect(reverseChargeApplies({ seller: party('US'), buyer: { name: '', email: '', company: null } })).toBe(false)
  })
})

describe('the prepaid-credit model', () => {
  it('invoices a top-up as prepaid credit, and a purchase from the balance with the credit applied and nothing due', async () => {
    const { agent, client } = await signedInClient(t)
    const topUp = await paidTopUp(t.db, client.id, 100_000)
    const topUpText = await pdfText((await agent.get(`/api/transaction/${topUp.id}/invoice/`)).rawPayload)
    expect(topUpText).toContain('Prepaid credit (USD balance): Balance top-up')
    expect(topUpText).toMatch(/Amount paid\s+\$1,000\.00/)
    expect(topUpText).toMatch(/Amount due\s+\$0\.00/)

    const bought = await agent.post('/api/resource/buy/', {
      payment_source: 'balance',
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/basket/',
      items: [{ config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 2 }],
    })
    expect(bought.statusCode, bought.body).toBe(200)
    const [purchase] = (await agent.get('/api/transaction/')).json().transactions
    const text = await pdfText((await agent.get(purchase.invoice_url)).rawPayload)
    expect(text).toMatch(/Total \(USD\)\s+\$599\.80/)
    expect(text).toMatch(/Prepaid credit applied\s+-\$599\.80/)
    expect(text).toMatch(/Amount paid\s+\$0\.00/)
    expect(text).toMatch(/Amount due\s+\$0\.00/)
    expect(text).not.toContain('Prepaid credit (USD balance)')
  })

  it('invoices a card or PayPal purchase as paid, with no credit applied', async () => {
    expect(settlementOf({ kind: 'purchase', payment_source: 'stripe' })).toBe('paid')
    expect(settlementOf({ kind: 'renewal', payment_source: 'paypal' })).toBe('paid')
    expect(settlementOf({ kind: 'purchase', payment_source: 'balance' })).toBe('credit_applied')
    expect(settlementOf({ kind: 'top_up', payment_source: 'stripe' })).toBe('prepaid_credit')
    const pdf = await renderInvoice({
      number: 9,
      paidAt: new Date('2026-11-02T00:00:00Z'),
      seller: DEFAULT_SELLER,
      buyer: { name: 'Card Buyer', email: 'card@example.com', company: null },
      lines: [{ description: 'Nuitrack AI perpetual', quantity: 1, amount_cents: 4_200 }],
      totalCents: 4_200,
      paymentMethod: 'Visa •••• 4242',
      transactionId: 77,
      settlement: 'paid',
    })
    const text = await pdfText(pdf)
    expect(text).toMatch(/Amount paid\s+\$42\.00/)
    expect(text).not.toContain('Prepaid credit')
  })
})

describe('invoice numbers', () => {
  it('run without gaps: an attempt that rolls back gives its number back', async () => {
    const { client } = await signedInClient(t)
    const first = await paidTopUp(t.db, client.id, 1_000)
    await expect(
      t.db.transaction(async (tx) => {
        await insertTransaction(tx, {
          clientId: client.id,
          type: 0,
          status: 0,
          amountCents: 1_000,
          kind: 'top_up',
          description: 'Balance top-up',
          lines: [],
          paymentSource: 'stripe',
          invoiceNumber: await nextInvoiceNumber(tx),
        })
        throw new Error('the provider call failed after numbering')
      }),
    ).rejects.toThrow('the provider call failed')
    // a payment completing through the provider takes the next number, with no hole
    const pending = await pendingTopUp(t.db, client.id, 2_500)
    await settle(ctx(), pending.sessionId, 'paid')
    const second = await paidTopUp(t.db, client.id, 1_000)
    const numbers = await t.db.query<{ n: string | number }>(
      'SELECT invoice_number AS n FROM transactions WHERE invoice_number IS NOT NULL ORDER BY invoice_number',
    )
    expect(numbers.map((r) => Number(r.n))).toEqual([1, 2, 3])
    expect(first.invoice_number).toBe(1)
    expect(second.invoice_number).toBe(3)
    expect(await count(t.db, 'transactions')).toBe(3)
  })
})
