import { Box, Group, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { ActivityEvent } from '@portal/domain'
import { formatDayTime } from '../../../lib/format.ts'
import { describeActivity } from './describe.ts'

/**
 * The lines of a history, newest first: what happened, when and by whom. `withLicense` names the license
 * each line is about (the account's history mixes them).
 */
export function HistoryList({ events, withLicense = false }: { events: readonly ActivityEvent[]; withLicense?: boolean }) {
  const { t } = useTranslation()
  return (
    <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }} data-testid="history-list">
      {events.map((e) => (
        <Box
          component="li"
          key={e.id}
          py="xs"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          data-testid="history-line"
          data-kind={e.kind}
        >
          <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
            <Box style={{ minWidth: 0, flex: '1 1 16rem' }}>
              {withLicense && e.license_title ? (
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {e.license_title}
                </Text>
              ) : null}
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {describeActivity(e, t)}
              </Text>
              {e.actor ? (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="history-actor">
                  {t('by {{email}}', { email: e.actor })}
                </Text>
              ) : null}
            </Box>
            <Text size="sm" c="dimmed" component="time" dateTime={e.created_at} style={{ whiteSpace: 'nowrap' }}>
              {formatDayTime(e.created_at)}
            </Text>
          </Group>
        </Box>
      ))}
    </Stack>
  )
}
