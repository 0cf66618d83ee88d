import { useMemo, useState } from 'react'
import { Alert, Anchor, Button, Card, Center, CopyButton, Group, Modal, NumberInput, Select, Stack, Table, Tabs, Text, TextInput } from '@mantine/core'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import {
  GROUP_SIZE_MAX,
  LICENSE_TITLE_MAX,
  OS_TYPES,
  SOURCE_GROUP_PRODUCTS,
  canSplit,
  checkSplit,
  defaultGroupSize,
  groupKind,
  productRecord,
  productTitle,
  splitBody,
  type GroupView,
} from '@portal/domain'
import { useGroups } from '../../../api/groups.ts'
import { useSplitGroup } from '../../../api/group-mutations.ts'
import { useGroupLicenses } from '../../../api/licenses.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { StatusBadge } from '../../../components/LicenseBits.tsx'
import { FormError } from '../../../components/FormError.tsx'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { paths } from '../../../config/paths.ts'
import { useCan } from '../../../lib/use-can.ts'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

/** The split body's title, beside the source and size the form picks (checked against the groups on screen). */
const splitForm = splitBody.pick({ title: true })

const isEnterprise = (g: GroupView) => productRecord(g.product)?.group_keys === 'enterprise'
/** The products whose licenses make group keys (the catalogue's source-group products), by name. */
const groupKeySources = (t: TFunction) =>
  SOURCE_GROUP_PRODUCTS.map((p) =>
    productRecord(p)?.group_keys === 'enterprise'
      ? t('{{product}} (enterprise keys)', { product: productTitle(p) })
      : t('{{product}} (group keys)', { product: productTitle(p) }),
  ).join(', ')

/** Group keys of Nuitrack: the keys, the enterprise keys, and the licenses made from them. */
export function GroupKeysPage() {
  const { t } = useTranslation()
  const groups = useGroups()
  const licenses = useGroupLicenses('keys')
  const [creating, setCreating] = useState(false)
  const canManage = useCan('licenses')
  const all = groups.data?.groups ?? []
  const keys = all.filter((g) => groupKind(g) === 'key' && g.type === 'nuitrack')
  const sources = all.filter(canSplit)
  const fromKeys = licenses.data?.licenses ?? []

  if (groups.isPending || licenses.isPending) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading group keys')} />
      </Center>
    )
  }
  return (
    <>
      <PageTitle
        right={
          canManage ? (
            <Button onClick={() => setCreating(true)} disabled={sources.length === 0}>
              {t('Create a group key')}
            </Button>
          ) : null
        }
      >
        {t('Group keys')}
      </PageTitle>
      <Alert color={sources.length === 0 ? 'yellow' : 'gray'} mb="md" title={t('Which purchases make group keys')} data-testid="group-key-sources">
        <Stack gap={4}>
          <Text size="sm">
            {t(
              'A group key hands several licenses out with one key: each device that activates with it gets a license of its own. Group keys are made from licenses not yet generated of these purchases: {{products}}. Nuitrack Pro, AI and trial licenses do not make group keys.',
              { products: groupKeySources(t) },
            )}
          </Text>
          {sources.length === 0 && <Text size="sm">{t('You have none available right now.')}</Text>}
        </Stack>
      </Alert>
      <Card withBorder padding="lg">
        <Tabs defaultValue="group-keys">
          <Tabs.List mb="md">
            <Tabs.Tab value="licenses">{t('Licenses ({{n}})', { n: fromKeys.length })}</Tabs.Tab>
            <Tabs.Tab value="group-keys">{t('Group keys ({{n}})', { n: keys.filter((g) => !isEnterprise(g)).length })}</Tabs.Tab>
            <Tabs.Tab value="enterprise">{t('Enterprise keys ({{n}})', { n: keys.filter(isEnterprise).length })}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="licenses">
            {fromKeys.length === 0 ? (
              <Text c="dimmed" py="md">
                {t('No licenses have been generated from group keys yet.')}
              </Text>
            ) : (
              <CardTable minWidth={520}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('License')}</Table.Th>
                    <Table.Th>{t('Group key')}</Table.Th>
                    <Table.Th>{t('Status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {fromKeys.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td className={cardCell.lead}>
                        <Anchor component={Link} to={paths.licenseInfo(l.type, l.id)}>
                          {l.title}
                        </Anchor>
                      </Table.Td>
                      <Table.Td data-label={t('Group key')}>{l.group}</Table.Td>
                      <Table.Td data-label={t('Status')}>
                        <StatusBadge status={l.state} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </CardTable>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="group-keys">
            <KeyTable groups={keys.filter((g) => !isEnterprise(g))} empty="No group keys yet. Create one to hand several Nuitrack licenses out with one key." />
          </Tabs.Panel>
          <Tabs.Panel value="enterprise">
            <KeyTable groups={keys.filter(isEnterprise)} empty="No enterprise keys yet. They are made from Nuitrack Unlimited licenses." />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <CreateGroupKey opened={creating} onClose={() => setCreating(false)} sources={sources} />
    </>
  )
}

function KeyTable({ groups, empty }: { groups: GroupView[]; empty: string }) {
  const { t } = useTranslation()
  if (groups.length === 0) {
    return (
      <Text c="dimmed" py="md">
        {t(empty)}
      </Text>
    )
  }
  return (
    <CardTable minWidth={560}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Name')}</Table.Th>
          <Table.Th>{t('Product')}</Table.Th>
          <Table.Th>{t('Key')}</Table.Th>
          <Table.Th ta="right">{t('Generated')}</Table.Th>
          <Table.Th ta="right">{t('Available')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groups.map((g) => (
          <Table.Tr key={g.id} data-testid="group-key-row">
            <Table.Td className={cardCell.lead}>
              <Anchor component={Link} to={paths.groupKeyInfo(g.id)}>
                {g.title}
              </Anchor>
            </Table.Td>
            <Table.Td data-label={t('Product')}>{productTitle(g.product)}</Table.Td>
            <Table.Td data-label={t('Key')}>
              {/* on a phone's card the button goes under a key too long to share its line */}
              <Group gap={4}>
                <Text size="sm" ff="monospace">
                  {g.token}
                </Text>
                <CopyButton value={g.token}>
                  {({ copied, copy }) => (
                    <Button variant="subtle" size="compact-xs" onClick={copy} aria-label={t('Copy the key of {{title}}', { title: g.title })}>
                      {copied ? t('Copied') : t('Copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Table.Td>
            <Table.Td className={cardCell.end} data-label={t('Generated')}>
              {g.used_licenses}
            </Table.Td>
            <Table.Td className={cardCell.end} data-label={t('Available')}>
              {g.limit}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </CardTable>
  )
}

function CreateGroupKey({ opened, onClose, sources }: { opened: boolean; onClose: () => void; sources: GroupView[] }) {
  const { t } = useTranslation()
  const split = useSplitGroup()
  const navigate = useNavigate()
  const options = useMemo(
    () =>
      sources.map((g) => ({
        value: String(g.id),
        label: `${productTitle(g.product)}${g.os_type !== null ? `, ${OS_TYPES[g.os_type as 0 | 1 | 2]}` : ''} (${t('{{n}} available', { n: g.limit })})`,
      })),
    [sources, t],
  )
  // the split body's title from the schema; the source and the size rules need the groups on screen
  const form = useSchemaForm(splitForm, { source: null as string | null, title: '', limit: '' as number | string })
  const sourceId = form.values.source ?? options[0]?.value
  const source = sources.find((g) => String(g.id) === sourceId)
  const effectiveSize = form.values.limit === '' && source ? defaultGroupSize(source.limit) : form.values.limit
  // the field is the key's name: the title rule's text would speak of a title
  const nameError =
    form.errors.title === 'license_title_max_length_error' ? t('The name must be at most {{max}} characters', { max: LICENSE_TITLE_MAX }) : undefined

  const submit = form.submit(async ({ title }) => {
    if (!source) return form.setFieldError('source', t('Choose the licenses to make the key from'))
    const n = Number(effectiveSize)
    // the sources offered are all splittable, so the problem is the size; the domain text is general,
    // here the form knows the source's limit
    const sizeProblem = checkSplit(source, n)
    if (sizeProblem)
      return form.setFieldError(
        'limit',
        sizeProblem === 'license_in_group_limit_error'
          ? t('There are only {{limit}} licenses available to add', { limit: source.limit })
          : sizeProblem === 'not_splittable' || sizeProblem === 'source_empty'
            ? t('There are no licenses available to add')
            : sizeProblem,
      )
    const res = await split.mutateAsync({ id: source.id, title, limit: n })
    onClose()
    void navigate(paths.groupKeyInfo(res.dest_group.id))
  })
  return (
    <Modal opened={opened} onClose={onClose} title={t('Create a group key')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label={t('Licenses to use')}
            data={options}
            {...form.getInputProps('source')}
            value={sourceId ?? null}
            onChange={(v) => form.setValues({ source: v, limit: '' })}
            allowDeselect={false}
          />
          <TextInput
            label={t('Name')}
            maxLength={LICENSE_TITLE_MAX + 1}
            {...form.getInputProps('title')}
            {...(nameError ? { error: nameError } : {})}
            data-autofocus
          />
          <NumberInput
            label={t('Number of licenses')}
            description={source ? t('2 to {{limit}}', { limit: source.limit }) : undefined}
            {...form.getInputProps('limit')}
            value={effectiveSize}
            min={1}
            max={GROUP_SIZE_MAX}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
          />
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {t('Create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
