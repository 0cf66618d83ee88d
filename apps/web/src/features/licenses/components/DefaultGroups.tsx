import { Anchor, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/use-can.ts'
import { Link } from 'react-router'
import { UNACTIVATED_LICENSE_LIMIT, generateAllCount, type Platform } from '@portal/domain'
import { useGenerateAll } from '../../../api/group-mutations.ts'
import { paths } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import type { Row } from './filters.ts'

/**
 * The groups with licenses left to generate, as one compact list above the table: per group what is
 * left, "Generate all" (as many as the rule of at most 10 unactivated licenses allows, in one call)
 * and the one-at-a-time page where a key gets its title.
 */
export function DefaultGroups({ platform, rows, unactivated }: { platform: Platform; rows: Row[]; unactivated: number }) {
  const { t } = useTranslation()
  // generating keys is for a role that may change licenses
  const canGenerate = useCan('licenses')
  const generate = useGenerateAll()
  const slots = rows.filter((r): r is Extract<Row, { kind: 'slot' }> => r.kind === 'slot')
  if (!slots.length) return null
  const run = async (id: number, count: number) => {
    try {
      const made = await generate.mutateAsync([{ id, count }])
      notifySuccess(t('Keys generated: {{count}}', { count: made.length }), t('Titles can be changed on each license’s page.'))
    } catch {
      // the error modal has told the user
    }
  }
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="to-generate-title">
      <Title order={2} size="h5" mb={4} id="to-generate-title">
        {t('Licenses to generate')}
      </Title>
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
        {slots.map(({ group }) => {
          const free = group.limit - group.holded_limit
          const count = generateAllCount(free, unactivated)
          const busy = generate.isPending && generate.variables[0]?.id === group.id
          return (
            <Box component="li" key={group.id} py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="to-generate">
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Box style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {group.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {group.holded_limit > 0
                      ? t('{{limit}} of {{total}} licenses not generated yet, {{held}} on hold', {
                          limit: group.limit,
                          total: group.total,
                          held: group.holded_limit,
                        })
                      : t('{{limit}} of {{total}} licenses not generated yet', { limit: group.limit, total: group.total })}
                  </Text>
                  {free > 0 && count < free && (
                    <Text size="xs" c="dimmed">
                      {count === 0
                        ? t('At most {{max}} licenses can wait unactivated: activate some first.', { max: UNACTIVATED_LICENSE_LIMIT })
                        : t('{{count}} can be generated now: at most {{max}} licenses can wait unactivated.', { count, max: UNACTIVATED_LICENSE_LIMIT })}
                    </Text>
                  )}
                </Box>
                <Group gap="xs" wrap="nowrap" hidden={!canGenerate}>
                  <Anchor component={Link} to={paths.preInfo(platform, group.id, group.limit === 0 && group.holded_limit > 0)} size="sm">
                    {t('Generate a key')}
                  </Anchor>
                  {count > 0 && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={busy}
                      disabled={generate.isPending && !busy}
                      onClick={() => void run(group.id, count)}
                      aria-label={t('Generate all {{count}} keys of {{group}}', { count, group: group.title })}
                    >
                      {count === free ? t('Generate all ({{count}})', { count }) : t('Generate {{count}}', { count })}
                    </Button>
                  )}
                </Group>
              </Group>
            </Box>
          )
        })}
      </Stack>
    </Card>
  )
}
