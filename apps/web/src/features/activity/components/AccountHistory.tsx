import { useState } from 'react'
import { Button, Card, Center, Group, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useAccountHistory } from '../api/account-history.ts'
import { exportHistoryCsv } from '../api/export-history.ts'
import { HistoryList } from './HistoryList.tsx'
import { HistoryState } from './HistoryState.tsx'

/**
 * The account screen's history: every license's lines, newest first, a page at a time; a corporate
 * account can export the whole history as CSV.
 */
export function AccountHistory({ corporate }: { corporate: boolean }) {
  const { t } = useTranslation()
  const history = useAccountHistory()
  const [exporting, setExporting] = useState(false)
  const events = history.data?.pages.flatMap((p) => p.events) ?? []
  const total = history.data?.pages[0]?.total ?? 0
  const exportCsv = async () => {
    setExporting(true)
    try {
      await exportHistoryCsv()
    } catch {
      // the error dialog has told the user
    } finally {
      setExporting(false)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-history-title" data-testid="account-history">
      <Group justify="space-between" align="center" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="account-history-title">
          {t('Activity history')}
        </Title>
        {corporate ? (
          <Button variant="light" size="xs" onClick={() => void exportCsv()} loading={exporting} disabled={total === 0}>
            {t('Export CSV')}
          </Button>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('What happened to your licenses and when: created, renamed, activated, paid, renewed and more.')}
      </Text>
      <HistoryState query={history} empty={events.length === 0 ? t('Nothing has happened yet. Your licenses’ history will show here.') : null}>
        <HistoryList events={events} withLicense />
        {history.hasNextPage ? (
          <Center mt="sm">
            <Button variant="default" size="xs" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
              {t('Show more ({{left}} left)', { left: total - events.length })}
            </Button>
          </Center>
        ) : null}
      </HistoryState>
    </Card>
  )
}
