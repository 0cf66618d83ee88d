import { useId, useState, type ReactNode } from 'react'
import { Box, Card, Group, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'

/**
 * One picture of the fleet view: its title, a sentence that says what it shows, and the chart with a
 * table of the same figures. The chart is drawn for the eye only (hidden from assistive technology);
 * the table is always in the page, out of sight until "Show as table" puts it in the chart's place,
 * so a screen reader reads the figures, and anyone can.
 */
export function ChartCard({
  title,
  summary,
  empty,
  chart,
  table,
  testId,
}: {
  title: string
  summary: string
  /** said instead of a chart when there is nothing to draw */
  empty: string | null
  chart: ReactNode
  /** the figures as a table; `hidden` when it sits out of sight beside the chart */
  table: (hidden: boolean) => ReactNode
  testId: string
}) {
  const { t } = useTranslation()
  const [asTable, setAsTable] = useState(false)
  const titleId = useId()
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Title order={2} size="h4" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed" data-testid="chart-summary">
              {summary}
            </Text>
          </div>
          {empty === null && <Switch label={t('Show as table')} checked={asTable} onChange={(e) => setAsTable(e.currentTarget.checked)} />}
        </Group>
        {empty !== null ? (
          <Text size="sm" py="md" data-testid="chart-empty">
            {empty}
          </Text>
        ) : asTable ? (
          table(false)
        ) : (
          <>
            <Box aria-hidden="true" data-testid="chart">
              {chart}
            </Box>
            <VisuallyHidden>{table(true)}</VisuallyHidden>
          </>
        )}
      </Stack>
    </Card>
  )
}
