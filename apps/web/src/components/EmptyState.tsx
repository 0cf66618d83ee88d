import type { ReactNode } from 'react'
import { Stack, Text } from '@mantine/core'

export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <Text fw={600} fz="lg">
        {title}
      </Text>
      {text ? (
        <Text size="sm" c="dimmed" ta="center">
          {text}
        </Text>
      ) : null}
      {action}
    </Stack>
  )
}
