import { Button, Card, Center, Loader, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLicenseHistory } from '../api/license-history.ts'
import { HistoryList } from './HistoryList.tsx'

/** The license info screen's history panel: loading, empty, failed (with a retry) or the lines. */
export function LicenseHistory({ licenseId }: { licenseId: number }) {
  const { t } = useTranslation()
  const history = useLicenseHistory(String(licenseId))
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="history-title" data-testid="license-history">
      <Title order={2} size="h4" mb="xs" id="history-title">
        {t('History')}
      </Title>
      {history.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('Loading the history')} />
        </Center>
      ) : history.isError ? (
        <Text c="red.8" py="sm" role="alert">
          {t('The history could not be loaded.')}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => void history.refetch()}>
            {t('Try again')}
          </Button>
        </Text>
      ) : history.data.events.length === 0 ? (
        <Text c="dimmed" py="sm">
          {t('Nothing has happened to this license yet.')}
        </Text>
      ) : (
        <HistoryList events={history.data.events} />
      )}
    </Card>
  )
}
