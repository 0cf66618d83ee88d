import { useQuery } from '@tanstack/react-query'
import { transactionsQueryOptions } from '../../../api/transactions.ts'
import { getFile } from '../../../lib/api-client.ts'
import { saveFile } from '../../../lib/save-file.ts'

export const useTransactions = () => useQuery(transactionsQueryOptions())

/** The invoice PDF of a paid transaction, saved as invoice-{id}.pdf (spec section 7); a failure shows internal_server_error. */
export async function downloadInvoice(t: { id: number; invoice_url: string }) {
  const blob = await getFile(t.invoice_url)
  saveFile(blob, `invoice-${t.id}.pdf`)
}
