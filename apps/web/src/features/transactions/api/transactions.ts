import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import { formatInvoiceNumber } from '@portal/domain'
import { transactionPagesQueryOptions, type TransactionSelection } from '../../../api/transactions.ts'
import { getFile } from '../../../lib/api-client.ts'
import { saveFile } from '../../../lib/save-file.ts'

/** The payment documents of a selection, a page at a time; the rows of the last selection stay while another loads. */
export const useTransactionPages = (selection: TransactionSelection) =>
  useInfiniteQuery({ ...transactionPagesQueryOptions(selection), placeholderData: keepPreviousData })

/** The invoice PDF of a paid transaction, saved under the invoice's number (INV-000001.pdf); a failure shows internal_server_error. */
export async function downloadInvoice(t: { invoice_number: number | null; invoice_url: string }) {
  const blob = await getFile(t.invoice_url)
  saveFile(blob, `${formatInvoiceNumber(t.invoice_number ?? 0)}.pdf`)
}

/** A credit note's PDF, saved under its number (CN-000001.pdf). */
export async function downloadCreditNote(n: { number: string; pdf_url: string }) {
  const blob = await getFile(n.pdf_url)
  saveFile(blob, `${n.number}.pdf`)
}
