import type { ReactNode } from 'react'
import { Group, Title } from '@mantine/core'

export function PageTitle({ children, right }: { children: ReactNode; right?: ReactNode }) {
  return (
    <Group justify="space-between" mb="lg" wrap="wrap">
      <Title order={1} size="h2">
        {children}
      </Title>
      {right}
    </Group>
  )
}
