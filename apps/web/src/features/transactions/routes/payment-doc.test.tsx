import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { transactionSchema, type TransactionView } from '@portal/domain'
import { json, mockApi, renderApp, setLogged, signedInRoutes, type Answer } from '../../../test/utils.tsx'
import { readText } from '../../../test/read-blob.ts'
import { transactionSelection } from '../components/filters.ts'
import { unlabelledColumns } from '../../../test/card-table.ts'

/** A transaction as GET /api/transaction/ answers it: a paid top-up by default. */
const tx = (over: Partial<TransactionView> = {}): TransactionView => {
  const created = over.creation_date ?? '2026-11-20T12:00:00.000Z'
  return transactionSchema.parse({
    id: 41,
    creation_date: created,
    dates: { createdDate: created },
    status: 'ok',
    status_code: 0,
    amount: 150,
    type: 0,
    description: 'Balance top-up',
    payment_method: 'Visa •••• 4242',
    invoice_number: 7,
    invoice_url: `/api/transaction/${over.id ?? 41}/invoice/`,
    ...over,
  })
}

const list = [
  tx({
    id: 44,
    creation_date: '2026-11-21T10:00:00.000Z',
    status: 'declined',
    status_code: 2,
    amount: 60,
    invoice_url: null,
    invoice_number: null,
    payment_method: null,
  }),
  tx({
    id: 43,
    creation_date: '2026-11-05T10:00:00.000Z',
    invoice_number: 8,
    type: 1,
    amount: 3.28,
    description: 'Nuitrack Pro, 1 month',
    payment_method: 'Balance',
  }),
  tx({ id: 42, creation_date: '2026-10-30T10:00:00.000Z', status: 'expired', status_code: 3, amount: 20, invoice_url: null, invoice_number: null }),
  tx({ id: 41, creation_date: '2026-10-02T10:00:00.000Z', amount: 1234.5 }),
]

/** GET /api/transaction/ as the server answers it: the status and the window [from, to) applied, then the page. */
const served =
  (transactions: TransactionView[]): Answer =>
  ({ url }) => {
    const q = new URL(url, 'http://portal.test').searchParams
    const at = (name: string) => (q.get(name) === null ? null : new Date(q.get(name)!).getTime())
    const [from, to] = [at('from'), at('to')]
    const matching = transactions.filter((t) => {
      const created = new Date(t.creation_date).getTime()
      return (!q.get('status') || t.status === q.get('status')) && (from === null || created >= from) && (to === null || created < to)
    })
    const offset = Number(q.get('offset') ?? 0)
    const page = q.get('limit') === null ? matching.slice(offset) : matching.slice(offset, offset + Number(q.get('limit')))
    return json(200, { transactions: page, total: matching.length, credit_notes: [], owed: 0 })
  }

function serve(transactions: TransactionView[] | Answer, more: Parameters<typeof mockApi>[0] = {}) {
  setLogged()
  return mockApi({
    ...signedInRoutes(),
    'GET /api/transaction/': typeof transactions === 'function' ? transactions : served(transactions),
    ...more,
  })
}

const rows = () => screen.getAllByTestId('transaction-row')
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent)

describe('/app/payment-doc/', () => {
  it('on a phone each transaction is a card headed by its description, every other line named by its column, the Download button in it', async () => {
    serve(list)
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    const table = screen.getByRole('table', { name: 'Transactions' })
    expect(unlabelledColumns(table)).toEqual(['Description'])
    expect(within(rows()[1]!).getByRole('button', { name: 'Download invoice 8' }).closest('td')).toHaveAttribute('data-label', 'Invoice')
  })

  it('lists the transactions: date, description, status, signed amount, payment method and invoice', async () => {
    serve(list)
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    expect(rows().map(cellsOf)).toEqual([
      ['Nov 21, 2026', 'Balance top-up', 'Declined', '+$60.00', '—', '—'],
      ['Nov 05, 2026', 'Nuitrack Pro, 1 month', 'Paid', '-$3.28', 'Balance', 'Download'],
      ['Oct 30, 2026', 'Balance top-up', 'Expired', '+$20.00', 'Visa •••• 4242', '—'],
      ['Oct 02, 2026', 'Balance top-up', 'Paid', '+$1,234.50', 'Visa •••• 4242', 'Download'],
    ])
    // a declined or expired payment moved no money: its amount is not drawn as a credit
    expect(rows().map((r) => r.querySelector('[data-moved]')?.getAttribute('data-moved'))).toEqual(['no', 'yes', 'no', 'yes'])
  })

  it('shows a loading state, then an empty state when there are no transactions at all', async () => {
    let answer!: (r: Response) => void
    serve(() => new Promise<Response>((r) => (answer = r)))
    renderApp('/app/payment-doc/')
    expect(await screen.findByTestId('transactions-loading')).toHaveAttribute('aria-busy', 'true')
    answer(json(200, { transactions: [], total: 0, credit_notes: [], owed: 0 }))
    expect(await screen.findByText('No transactions yet')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('filters by status; a status no transaction has shows the no-match state, which clears the filters', async () => {
    serve(list.filter((t) => t.status !== 'pending'))
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    const user = userEvent.setup()
    const status = screen.getByRole('radiogroup', { name: 'Status' })
    await user.click(within(status).getByRole('radio', { name: 'Paid' }))
    expect(rows().map((r) => cellsOf(r)[3])).toEqual(['-$3.28', '+$1,234.50'])
    await user.click(within(status).getByRole('radio', { name: 'Declined' }))
    expect(rows().map((r) => cellsOf(r)[0])).toEqual(['Nov 21, 2026'])
    await user.click(within(status).getByRole('radio', { name: 'Pending' }))
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.getByText('No transactions match the filters')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(rows()).toHaveLength(4)
  })

  it('reads a page of 50 and the next 50 a click, never the whole list; a filter reads its own first page', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      tx({ id: 1000 - i, creation_date: new Date(Date.UTC(2026, 10, 20, 12) - i * 3_600_000).toISOString(), invoice_number: 500 - i }),
    )
    const calls = serve(many)
    renderApp('/app/payment-doc/')
    await waitFor(() => expect(screen.getAllByTestId('transaction-row')).toHaveLength(50))
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Show more (70 left)' }))
    await waitFor(() => expect(rows()).toHaveLength(100))
    await user.click(screen.getByRole('button', { name: 'Show more (20 left)' }))
    await waitFor(() => expect(rows()).toHaveLength(120))
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull()
    const asked = calls.filter((c) => c.url.startsWith('/api/transaction/?')).map((c) => new URL(c.url, 'http://portal.test').search)
    expect(asked).toEqual(['?limit=50', '?offset=50&limit=50', '?offset=100&limit=50'])
    // a status reads its own first page from the server
    await user.click(within(screen.getByRole('radiogroup', { name: 'Status' })).getByRole('radio', { name: 'Declined' }))
    await waitFor(() => expect(screen.getByText('No transactions match the filters')).toBeInTheDocument())
    expect(calls.at(-1)!.url).toBe('/api/transaction/?status=declined&limit=50')
  })

  it('filters by a creation-date range picked in the calendar', async () => {
    serve(list)
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    const user = userEvent.setup()
    // jsdom lays nothing out, so Mantine's focus trap finds nothing tabbable in the calendar and warns
    // with the whole node (hundreds of log lines): that warning is kept out of the log, any other shows
    const warnings: unknown[][] = []
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args))
    await user.click(screen.getByRole('button', { name: 'Created' }))
    // for the same reason the dropdown's hide-when-detached check hides it: its buttons are looked up hidden
    const calendar = await screen.findByRole('dialog', { hidden: true })
    // the calendar opens on the current month: go to November 2026 from wherever that is
    const today = new Date()
    const monthsAway = (today.getFullYear() - 2026) * 12 + today.getMonth() - 10
    for (let i = 0; i < Math.abs(monthsAway); i++) {
      await user.click(within(calendar).getByRole('button', { name: monthsAway > 0 ? 'Previous month' : 'Next month', hidden: true }))
    }
    await user.click(within(calendar).getByRole('button', { name: '1 November 2026', hidden: true }))
    await user.click(within(calendar).getByRole('button', { name: '20 November 2026', hidden: true }))
    await waitFor(() => expect(rows().map((r) => cellsOf(r)[0])).toEqual(['Nov 05, 2026']))
    expect(screen.getByRole('button', { name: 'Created' })).toHaveTextContent('Nov 01, 2026 – Nov 20, 2026')
    expect(warnings.map(([message]) => message).filter((m) => !String(m).startsWith('[@mantine/hooks/use-focus-trap] Failed to find focusable'))).toEqual([])
  })

  it("downloads an invoice with the session cookies and saves it under the invoice's number", async () => {
    const calls = serve(list, {
      'GET /api/transaction/:id/invoice/': () => new Response('%PDF-1.7 test', { status: 200, headers: { 'Content-Type': 'application/pdf' } }),
    })
    const created = vi.fn((_: Blob | MediaSource) => 'blob:invoice')
    URL.createObjectURL = created as typeof URL.createObjectURL
    URL.revokeObjectURL = vi.fn()
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`)
    })
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download invoice 8' }))
    await waitFor(() => expect(saved).toEqual(['INV-000008.pdf blob:invoice']))
    const call = calls.find((c) => c.url === '/api/transaction/43/invoice/')!
    expect(call.method).toBe('GET')
    expect(vi.mocked(globalThis.fetch).mock.calls.find(([u]) => u === '/api/transaction/43/invoice/')![1]).toMatchObject({ credentials: 'same-origin' })
    expect(await readText(created.mock.calls[0]![0] as Blob)).toBe('%PDF-1.7 test')
  })

  it('a failed invoice download shows the internal_server_error modal', async () => {
    serve(list, { 'GET /api/transaction/:id/invoice/': () => json(500, { error_code: 'internal_server_error', error: 'boom' }) })
    renderApp('/app/payment-doc/')
    await screen.findAllByTestId('transaction-row')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download invoice 8' }))
    const dialog = await screen.findByRole('dialog', { name: 'An error occurred during the operation' })
    expect(dialog).toHaveTextContent('Something went wrong, please try again later.')
  })
})

describe('the transaction filters', () => {
  it('ask the server for a status and whole local days: from the first day’s start to the start of the day after the last', () => {
    const start = (y: number, m: number, d: number) => new Date(y, m - 1, d).toISOString()
    expect(transactionSelection('all', [null, null])).toEqual({})
    expect(transactionSelection('ok', [null, null])).toEqual({ status: 'ok' })
    expect(transactionSelection('all', ['2026-11-05', '2026-11-21'])).toEqual({ from: start(2026, 11, 5), to: start(2026, 11, 22) })
    expect(transactionSelection('expired', ['2026-10-31', null])).toEqual({ status: 'expired', from: start(2026, 10, 31) })
    // the last day of a month and of a year run into the next
    expect(transactionSelection('all', [null, '2026-12-31'])).toEqual({ to: start(2027, 1, 1) })
  })
})
