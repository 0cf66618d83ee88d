import { useEffect } from 'react'
import { Anchor, Button, Card, Center, CopyButton, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useParams } from 'react-router'
import { GENERIC_MESSAGES, productTitle } from '@portal/domain'
import { useGroups } from '../../../api/groups.ts'
import { useRenameGroup } from '../../../api/group-mutations.ts'
import { useGroupLicenses } from '../../../api/licenses.ts'
import { GroupCount } from '../../../components/GroupCount.tsx'
import { EditTitleButton } from '../../../components/EditTitleButton.tsx'
import { StatusBadge } from '../../../components/LicenseBits.tsx'
import { errorStore } from '../../../lib/error-store.ts'
import { paths } from '../../../config/paths.ts'
import { Spinner } from '../../../components/Spinner.tsx'

export function GroupKeyInfoPage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  const groups = useGroups()
  const validId = /^\d+$/.test(id)
  const licenses = useGroupLicenses(Number(id), validId)
  const rename = useRenameGroup()
  const group = groups.data?.groups.find((g) => g.id === Number(id) && !g.is_default)
  const missing = !validId || groups.isError || (groups.isSuccess && !group)
  useEffect(() => {
    if (missing) errorStore.show({ title: GENERIC_MESSAGES.error_title, message: t('Group key not found'), kind: 'error' })
  }, [missing, t])
  if (missing) return <Navigate to={paths.groupKeys} replace />
  if (!group) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading the group key')} />
      </Center>
    )
  }
  const members = licenses.data?.licenses ?? []
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={paths.groupKeys} size="sm">
        {t('← Group keys')}
      </Anchor>
      <Group gap="sm">
        <Title order={1} size="h2">
          {group.title}
        </Title>
        <EditTitleButton
          current={group.title}
          button="Rename"
          dialogTitle="Rename the group key"
          fieldLabel="Name"
          onSave={(title) => rename.mutateAsync({ id: group.id, title })}
        />
      </Group>
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('Group key')}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text ff="monospace" data-testid="group-key" style={{ overflowWrap: 'anywhere' }}>
                {group.token}
              </Text>
              <CopyButton value={group.token}>
                {({ copied, copy }) => (
                  <Button variant="subtle" size="compact-xs" onClick={copy} aria-label={t('Copy the group key')}>
                    {copied ? t('Copied') : t('Copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('Product')}
            </Text>
            <Text>{productTitle(group.product)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('Licenses')}
            </Text>
            <Text>
              {t('{{generated}} generated, {{available}} available, {{total}} in all', {
                generated: group.used_licenses,
                available: group.limit,
                total: group.total,
              })}
            </Text>
          </div>
        </SimpleGrid>
        <Text size="sm" mt="md" data-testid="group-key-use">
          {t(
            'Enter this key on each device, or give it to the SDK’s activation: every new device gets a license of its own from this key, until its available licenses run out. A device that comes back gets its own license again.',
          )}
        </Text>
      </Card>
      <GroupCount group={group} />
      <Card withBorder padding="lg" component="section" aria-labelledby="members-title">
        <Title order={2} size="h4" mb="sm" id="members-title">
          {t('Licenses of this key')}
        </Title>
        {members.length === 0 ? (
          <Text c="dimmed">{t('No license has been generated from this key yet.')}</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('License')}</Table.Th>
                <Table.Th>{t('Status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.licenseInfo(l.type, l.id)}>
                      {l.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={l.state} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  )
}
