import { Anchor, Card, Group, Skeleton, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { FLEET_EXPIRY_DAYS, PLATFORM_TITLES, type Platform } from '@portal/domain'
import { useFleetSummary } from '../../../api/fleet-summary.ts'
import { paths } from '../../../config/paths.ts'

/** The dashboard's strip of the fleet view for one platform: two counts and the way to the charts. */
export function FleetStrip({ platform }: { platform: Platform }) {
  const { t } = useTranslation()
  const summary = useFleetSummary(platform)
  // the strip is extra: a failed count leaves it out rather than take the dashboard's place
  if (summary.isError) return null
  const stats = [
    { label: t('Active devices'), value: summary.data?.active_devices, testId: 'fleet-strip-devices' },
    { label: t('Expiring in the next {{days}} days', { days: FLEET_EXPIRY_DAYS }), value: summary.data?.expiring_soon, testId: 'fleet-strip-expiring' },
  ]
  return (
    <Card
      withBorder
      padding="sm"
      component="section"
      aria-label={t('{{platform}} at a glance', { platform: PLATFORM_TITLES[platform] })}
      data-testid="fleet-strip"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xl" wrap="wrap" aria-busy={summary.isPending || undefined}>
          {stats.map((s) => (
            <Group key={s.testId} gap={6} wrap="nowrap" data-testid={s.testId}>
              {s.value === undefined ? <Skeleton h={20} w={24} /> : <Text fw={700}>{s.value}</Text>}
              <Text size="sm" c="dimmed">
                {s.label}
              </Text>
            </Group>
          ))}
        </Group>
        <Anchor component={Link} to={paths.fleet} size="sm">
          {t('See fleet and spend')}
        </Anchor>
      </Group>
    </Card>
  )
}
