import type { ReactNode } from 'react'
import { Button, Center, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Spinner } from '../../../components/Spinner.tsx'

/**
 * What a history panel shows before its lines: loading, failed (with a retry) or empty (`empty`, the
 * panel's own words); otherwise `children`, the lines.
 */
export function HistoryState({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown }
  empty: string | null
  children: ReactNode
}) {
  const { t } = useTranslation()
  if (query.isPending)
    return (
      <Center py="md">
        <Spinner label={t('Loading the history')} size="sm" />
      </Center>
    )
  if (query.isError)
    return (
      <Text c="red.8" py="sm" role="alert">
        {t('The history could not be loaded.')}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void query.refetch()}>
          {t('Try again')}
        </Button>
      </Text>
    )
  if (empty !== null)
    return (
      <Text c="dimmed" py="sm">
        {empty}
      </Text>
    )
  return children
}
