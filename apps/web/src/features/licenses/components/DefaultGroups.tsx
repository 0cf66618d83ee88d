import { Button, Card, SimpleGrid, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Platform } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import type { Row } from './filters.ts'

/** Default groups with licenses left to generate, each with the way to generate one. */
export function DefaultGroups({ platform, rows }: { platform: Platform; rows: Row[] }) {
  const { t } = useTranslation()
  const slots = rows.filter((r): r is Extract<Row, { kind: 'slot' }> => r.kind === 'slot')
  if (!slots.length) return null
  return (
    <section aria-labelledby="available-title">
      <Title order={2} size="h4" mb="sm" id="available-title">
        {t('Available to generate')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {slots.map(({ group }) => (
          <Card key={group.id} withBorder padding="md">
            <Text fw={600}>{group.title}</Text>
            <Text size="sm" c="dimmed" mb="sm">
              {group.holded_limit > 0
                ? t('{{limit}} of {{total}} licenses not generated yet, {{held}} on hold', { limit: group.limit, total: group.total, held: group.holded_limit })
                : t('{{limit}} of {{total}} licenses not generated yet', { limit: group.limit, total: group.total })}
            </Text>
            <Button component={Link} to={paths.preInfo(platform, group.id, group.limit === 0 && group.holded_limit > 0)} variant="light" size="xs">
              {t('Generate a key')}
            </Button>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  )
}
