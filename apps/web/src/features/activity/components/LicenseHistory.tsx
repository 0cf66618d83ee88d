import { Card, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLicenseHistory } from '../api/license-history.ts'
import { HistoryList } from './HistoryList.tsx'
import { HistoryState } from './HistoryState.tsx'

/** The license info screen's history panel: loading, empty, failed (with a retry) or the lines. */
export function LicenseHistory({ licenseId }: { licenseId: number }) {
  const { t } = useTranslation()
  const history = useLicenseHistory(String(licenseId))
  const events = history.data?.events ?? []
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="history-title" data-testid="license-history">
      <Title order={2} size="h4" mb="xs" id="history-title">
        {t('History')}
      </Title>
      <HistoryState query={history} empty={events.length === 0 ? t('Nothing has happened to this license yet.') : null}>
        <HistoryList events={events} />
      </HistoryState>
    </Card>
  )
}
