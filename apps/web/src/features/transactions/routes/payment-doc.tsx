import { useState } from 'react'
import { Card, Group, SegmentedControl, Stack, Table, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/EmptyState.tsx'

export const TRANSACTION_FILTERS = ['all', 'ok', 'pending', 'declined', 'expired'] as const
type Filter = (typeof TRANSACTION_FILTERS)[number]
const FILTER_LABELS: Record<Filter, string> = { all: 'All', ok: 'Paid', pending: 'Pending', declined: 'Declined', expired: 'Expired' }

/** /app/payment-doc/: transactions by status and creation date (the list arrives in a later issue). */
export function PaymentDocRoute() {
  const { t } = useTranslation()
  const [status, setStatus] = useState<Filter>('all')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <Title order={1}>{t('Payment documents')}</Title>
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-end" mb="md" gap="md">
          <SegmentedControl
            aria-label={t('Status')}
            value={status}
            onChange={(v) => setStatus(v as Filter)}
            data={TRANSACTION_FILTERS.map((f) => ({ value: f, label: t(FILTER_LABELS[f]) }))}
          />
          <Group gap="sm" align="flex-end">
            <TextInput type="date" label={t('From')} value={from} max={to || undefined} onChange={(e) => setFrom(e.currentTarget.value)} />
            <TextInput type="date" label={t('To')} value={to} min={from || undefined} onChange={(e) => setTo(e.currentTarget.value)} />
          </Group>
        </Group>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-label={t('Transactions')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Date')}</Table.Th>
                <Table.Th>{t('Description')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
                <Table.Th>{t('Amount')}</Table.Th>
                <Table.Th>{t('Invoice')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <EmptyState title={t('No transactions yet')} text={t('Your payments and balance top-ups appear here.')} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  )
}
