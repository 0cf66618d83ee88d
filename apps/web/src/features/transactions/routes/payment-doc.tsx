import { useState } from 'react'
import { Alert, Button, Card, Center, Group, Input, SegmentedControl, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { DatePickerInput } from '@mantine/dates'
import '@mantine/dates/styles.layer.css'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/EmptyState.tsx'
import { CardTable, TableScroll, cardCell } from '../../../components/TableScroll.tsx'
import { formatUsd, type CreditNoteView } from '@portal/domain'
import { downloadCreditNote, useTransactionPages } from '../api/transactions.ts'
import { STATUS_LABELS, TransactionTable } from '../components/TransactionTable.tsx'
import { TRANSACTION_FILTERS, transactionSelection, type DayRange, type StatusFilter } from '../components/filters.ts'

const FILTER_LABELS: Record<StatusFilter, string> = { all: 'All', ...STATUS_LABELS }
const NO_RANGE: DayRange = [null, null]

/**
 * /app/payment-doc/: the client's transactions by status and creation date, with their invoices
 * (spec section 2). The server filters and pages them: a page of 50, then 50 more a click.
 */
export function PaymentDocRoute() {
  const { t } = useTranslation()
  const [status, setStatus] = useState<StatusFilter>('all')
  const [range, setRange] = useState<DayRange>(NO_RANGE)
  const transactions = useTransactionPages(transactionSelection(status, range))

  const pages = transactions.data?.pages ?? []
  const shown = pages.flatMap((p) => p.transactions)
  const first = pages[0]
  const total = first?.total ?? 0
  const filtered = status !== 'all' || range[0] !== null || range[1] !== null
  const clear = () => {
    setStatus('all')
    setRange(NO_RANGE)
  }

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <Title order={1}>{t('Payment documents')}</Title>
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-end" mb="md" gap="md">
          <Input.Wrapper label={t('Status')} id="transaction-status" labelElement="div" maw="100%">
            {/* on a phone the five statuses scroll sideways, with a shadow at the edge that has more */}
            <TableScroll minWidth={0}>
              <SegmentedControl
                aria-labelledby="transaction-status-label"
                value={status}
                onChange={(v) => setStatus(v as StatusFilter)}
                data={TRANSACTION_FILTERS.map((f) => ({ value: f, label: t(FILTER_LABELS[f]) }))}
                display="flex"
              />
            </TableScroll>
          </Input.Wrapper>
          <DatePickerInput
            type="range"
            // the calendar dialog is named by its field: the popover labels it by `${popover id}-target`
            id="created-range-target"
            popoverProps={{ id: 'created-range' }}
            hideOutsideDates
            // weekends in the default light red fall below 4.5:1; payments know no weekends anyway
            weekendDays={[]}
            label={t('Created')}
            placeholder={t('Any date')}
            value={range}
            onChange={(v) => setRange([v[0] ? String(v[0]) : null, v[1] ? String(v[1]) : null])}
            valueFormat="MMM DD, YYYY"
            allowSingleDateInRange
            clearable
            clearButtonProps={{ 'aria-label': t('Clear dates') }}
            ariaLabels={{
              nextMonth: t('Next month'),
              previousMonth: t('Previous month'),
              nextYear: t('Next year'),
              previousYear: t('Previous year'),
              nextDecade: t('Next decade'),
              previousDecade: t('Previous decade'),
              monthLevelControl: t('Choose a month'),
              yearLevelControl: t('Choose a year'),
            }}
            miw={260}
            // the placeholder as dark as the other dimmed texts (4.5:1)
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          />
        </Group>
        {transactions.isPending ? (
          <Stack gap="xs" aria-busy="true" aria-label={t('Loading transactions')} data-testid="transactions-loading">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : transactions.isError ? (
          <EmptyState
            title={t('The transactions could not be loaded')}
            action={
              <Button variant="light" onClick={() => void transactions.refetch()}>
                {t('Try again')}
              </Button>
            }
          />
        ) : shown.length === 0 && !filtered ? (
          <EmptyState title={t('No transactions yet')} text={t('Your payments and balance top-ups appear here.')} />
        ) : shown.length === 0 ? (
          <EmptyState
            title={t('No transactions match the filters')}
            action={
              <Button variant="light" onClick={clear}>
                {t('Clear filters')}
              </Button>
            }
          />
        ) : (
          <>
            <TransactionTable transactions={shown} />
            {transactions.hasNextPage ? (
              <Center mt="md">
                <Button variant="default" onClick={() => void transactions.fetchNextPage()} loading={transactions.isFetchingNextPage}>
                  {t('Show more ({{left}} left)', { left: total - shown.length })}
                </Button>
              </Center>
            ) : null}
          </>
        )}
      </Card>
      {(first?.owed ?? 0) > 0 ? (
        <Alert color="red" title={t('Amount owed')} data-testid="amount-owed">
          {t('balance.owed', { amount: formatUsd(first?.owed ?? 0) })}
        </Alert>
      ) : null}
      {first?.credit_notes?.length ? <CreditNotes notes={first.credit_notes} /> : null}
    </Stack>
  )
}

const KIND_LABELS: Record<CreditNoteView['kind'], string> = { refund: 'Refund', dispute: 'Dispute', reversal: 'Reversal' }

/** The credit notes that correct invoices (refunds, disputes, reversals), each with its PDF. */
function CreditNotes({ notes }: { notes: CreditNoteView[] }) {
  const { t } = useTranslation()
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h3" mb="sm">
        {t('Credit notes')}
      </Title>
      <CardTable minWidth={600} data-testid="credit-notes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Number')}</Table.Th>
            <Table.Th>{t('Kind')}</Table.Th>
            <Table.Th>{t('Amount')}</Table.Th>
            <Table.Th>{t('Reason')}</Table.Th>
            <Table.Th>{t('Document')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {notes.map((n) => (
            <Table.Tr key={n.id}>
              <Table.Td className={cardCell.lead}>
                <Text span fw={600}>
                  {n.number}
                </Text>
                <Text span display="block" size="xs" c="dimmed">
                  {t('credit_note.corrects', { invoice: n.corrects_invoice })}
                </Text>
              </Table.Td>
              <Table.Td data-label={t('Kind')}>{n.restored ? t('Dispute won') : t(KIND_LABELS[n.kind])}</Table.Td>
              <Table.Td data-label={t('Amount')}>{formatUsd(-n.amount)}</Table.Td>
              <Table.Td data-label={t('Reason')}>{n.reason}</Table.Td>
              <Table.Td data-label={t('Document')}>
                <Button variant="subtle" size="compact-sm" onClick={() => void downloadCreditNote(n)}>
                  {t('PDF')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </CardTable>
    </Card>
  )
}
