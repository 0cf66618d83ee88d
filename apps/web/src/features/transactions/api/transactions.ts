import { queryOptions, useQuery } from '@tanstack/react-query'
import { contracts } from '@portal/domain'
import { call, getFile } from '../../../lib/api-client.ts'
import { saveFile } from '../../../lib/save-file.ts'

/** GET /api/transaction/: the client's transactions, newest first. */
export const getTransactions = (signal?: AbortSignal) => call(contracts.transactionList, {}, { signal })

export const transactionsQueryOptions = () =>
  queryOptions({
    queryKey: ['transactions'] as const,
    queryFn: ({ signal }) => getTransactions(signal),
  })

export const useTransactions = () => useQuery(transactionsQueryOptions())

/** The invoice PDF of a paid transaction, saved as invoice-{id}.pdf (spec section 7); a failure shows internal_server_error. */
export async function downloadInvoice(t: { id: number; invoice_url: string }) {
  const blob = await getFile(t.invoice_url)
  saveFile(blob, `invoice-${t.id}.pdf`)
}
