import { useState } from 'react'
import { Badge, Button, Table, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { isCredit, signedAmount, type TransactionStatus, type TransactionView } from '@portal/domain'
import { formatDate } from '../../../lib/format.ts'
import { downloadInvoice } from '../api/transactions.ts'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'

export const STATUS_LABELS: Record<TransactionStatus, string> = { ok: 'Paid', pending: 'Pending', declined: 'Declined', expired: 'Expired' }
const STATUS_COLORS: Record<TransactionStatus, string> = { ok: 'green', pending: 'blue', declined: 'red', expired: 'gray' }

/** Whether a transaction's money moved, and how its amount looks for it: a declined or expired payment moved none, so it is grey and struck through, never a credit's green. */
function amountLook(tx: Pick<TransactionView, 'status' | 'type'>) {
  if (tx.status === 'declined' || tx.status === 'expired') return { c: 'dimmed', td: 'line-through', 'data-moved': 'no' } as const
  if (tx.status === 'pending') return { 'data-moved': 'not yet' } as const
  return { c: isCredit(tx.type) ? 'teal.9' : undefined, 'data-moved': 'yes' } as const
}

function InvoiceButton({ transaction }: { transaction: TransactionView & { invoice_url: string } }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const download = async () => {
    setBusy(true)
    try {
      await downloadInvoice(transaction)
    } catch {
      // the error modal has said it (internal_server_error)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button
      size="xs"
      variant="light"
      loading={busy}
      onClick={() => void download()}
      aria-label={t('Download invoice {{number}}', { number: transaction.invoice_number ?? transaction.id })}
    >
      {t('Download')}
    </Button>
  )
}

/** The payment documents: one row per transaction, credits with a plus, debits with a minus. */
export function TransactionTable({ transactions }: { transactions: TransactionView[] }) {
  const { t } = useTranslation()
  return (
    <CardTable minWidth={680} verticalSpacing="sm" striped highlightOnHover aria-label={t('Transactions')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Date')}</Table.Th>
          <Table.Th>{t('Description')}</Table.Th>
          <Table.Th>{t('Status')}</Table.Th>
          <Table.Th ta="right">{t('Amount')}</Table.Th>
          <Table.Th>{t('Payment method')}</Table.Th>
          <Table.Th>{t('Invoice')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {transactions.map((tx) => (
          <Table.Tr key={tx.id} data-testid="transaction-row">
            <Table.Td style={{ whiteSpace: 'nowrap' }} data-label={t('Date')}>
              {formatDate(tx.creation_date)}
            </Table.Td>
            <Table.Td className={cardCell.lead}>{tx.description}</Table.Td>
            <Table.Td data-label={t('Status')}>
              <Badge color={STATUS_COLORS[tx.status]} variant="light" c="dark.8" styles={{ root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
                {t(STATUS_LABELS[tx.status])}
              </Badge>
            </Table.Td>
            <Table.Td className={cardCell.end} style={{ whiteSpace: 'nowrap' }} data-label={t('Amount')}>
              <Text span inherit fw={600} {...amountLook(tx)}>
                {signedAmount(tx)}
              </Text>
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }} data-label={t('Payment method')}>
              {tx.payment_method ?? '—'}
            </Table.Td>
            <Table.Td data-label={t('Invoice')}>{tx.invoice_url ? <InvoiceButton transaction={{ ...tx, invoice_url: tx.invoice_url }} /> : '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </CardTable>
  )
}
