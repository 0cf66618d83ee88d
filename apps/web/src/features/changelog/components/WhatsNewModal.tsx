import { useState } from 'react'
import { Badge, Button, Center, Group, List, Modal, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useChangelog } from '../api/get-changelog.ts'
import { formatUtcDay } from '../../../lib/format.ts'
import { Spinner } from '../../../components/Spinner.tsx'

export const FIRST_RELEASES = 2

/** Release notes, newest first: the 2 latest, then the rest on request. */
export function WhatsNewModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const changelog = useChangelog(opened)
  const [all, setAll] = useState(false)
  const entries = changelog.data?.entries ?? []
  const shown = all ? entries : entries.slice(0, FIRST_RELEASES)

  return (
    <Modal
      opened={opened}
      onClose={() => {
        setAll(false)
        onClose()
      }}
      title={t("What's new")}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {changelog.isPending ? (
        <Center py="lg">
          <Spinner label={t('Loading release notes')} />
        </Center>
      ) : entries.length === 0 ? (
        <Text c="dimmed">{t('No release notes yet.')}</Text>
      ) : (
        <Stack gap="lg">
          {shown.map((e) => (
            <section key={e.version} aria-label={`${t('Version')} ${e.version}`}>
              <Group gap="sm" mb={6}>
                <Title order={3} fz="lg">
                  {t('Version')} {e.version}
                </Title>
                <Badge variant="light" color="gray">
                  {formatUtcDay(e.date)}
                </Badge>
              </Group>
              <List size="sm" spacing={4}>
                {e.changes.map((c, i) => (
                  <List.Item key={i}>{c}</List.Item>
                ))}
              </List>
            </section>
          ))}
          {!all && entries.length > FIRST_RELEASES ? (
            <Button variant="light" onClick={() => setAll(true)}>
              {t('Show earlier releases')}
            </Button>
          ) : null}
        </Stack>
      )}
    </Modal>
  )
}
