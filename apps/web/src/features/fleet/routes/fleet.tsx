import { Alert, Button, Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core'
import '@mantine/charts/styles.layer.css'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DEFAULT_PLATFORM, fleetIsEmpty } from '@portal/domain'
import { EmptyState } from '../../../components/EmptyState.tsx'
import { paths } from '../../../config/paths.ts'
import { useFleetView } from '../api/fleet-view.ts'
import { ActivationsChart, ExpiringChart, SpendChart, StatusChart } from '../components/FleetCharts.tsx'

/** /app/fleet/: pictures of what the account owns and pays for, each with its table. */
export function FleetRoute() {
  const { t } = useTranslation()
  const view = useFleetView()
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <div>
        <Title order={1}>{t('Fleet and spend')}</Title>
        <Text c="dimmed" size="sm">
          {t('Your devices, licenses and purchases across every platform. Days, weeks and months are in UTC.')}
        </Text>
      </div>
      {view.isPending ? (
        <FleetLoading />
      ) : view.isError ? (
        <Alert color="red" title={t('The charts could not be loaded')}>
          <Stack gap="xs" align="flex-start">
            <span>{t('Check your connection and try again.')}</span>
            <Button variant="light" size="xs" onClick={() => void view.refetch()}>
              {t('Try again')}
            </Button>
          </Stack>
        </Alert>
      ) : fleetIsEmpty(view.data) ? (
        <Card withBorder radius="md" padding="lg">
          <EmptyState
            title={t('Nothing to picture yet')}
            text={t('Charts appear here once you have licenses, activated devices or purchases.')}
            action={
              <Button component={Link} to={paths.basket(DEFAULT_PLATFORM)} variant="light">
                {t('Go to the basket')}
              </Button>
            }
          />
        </Card>
      ) : (
        <>
          <ActivationsChart days={view.data.activations} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <StatusChart statuses={view.data.license_status} />
            <ExpiringChart weeks={view.data.expiring} />
          </SimpleGrid>
          <SpendChart months={view.data.spend} />
        </>
      )}
    </Stack>
  )
}

function FleetLoading() {
  const { t } = useTranslation()
  return (
    <Stack gap="lg" aria-busy="true" aria-label={t('Loading the charts')} data-testid="fleet-loading">
      {[0, 1, 2].map((i) => (
        <Card key={i} withBorder radius="md" padding="lg">
          <Skeleton h={20} w="40%" mb="sm" />
          <Skeleton h={200} />
        </Card>
      ))}
    </Stack>
  )
}
