import { Button, Card, Group, NumberInput, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { GROUP_SIZE_MAX, checkGroupResize, resizeBody, type GroupView } from '@portal/domain'
import { useGroups } from '../api/groups.ts'
import { useResizeGroup } from '../api/group-mutations.ts'
import { useSchemaForm } from '../lib/use-schema-form.ts'
import { useCan } from '../lib/use-can.ts'
import { FormError } from './FormError.tsx'

/** A group key's available-license count: 1 up to its own limit plus its default group's. */
export function GroupCount({ group, disabled: held }: { group: GroupView; disabled?: boolean }) {
  const { t } = useTranslation()
  // only the licenses' managers resize (the server checks it too)
  const canResize = useCan('licenses')
  const disabled = held || !canResize
  const resize = useResizeGroup()
  const source = useGroups().data?.groups.find((g) => g.id === group.source_group_id)
  const { max } = checkGroupResize(group.limit, group, source ?? null)
  const form = useSchemaForm(resizeBody, { limit: group.limit as number | string })
  const submit = form.submit(async ({ limit }) => {
    // without a source group on the screen the server has the last word
    const { problem } = checkGroupResize(limit, group, source ?? null)
    if (problem === 'below_min') return form.setFieldError('limit', t('The group must keep at least 1 available license'))
    if (problem === 'above_max') return form.setFieldError('limit', t('At most {{max}} licenses can be available in this group', { max }))
    await resize.mutateAsync({ id: group.id, limit })
  })
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={`group-count-${group.id}`}>
      <Title order={2} size="h4" mb="xs" id={`group-count-${group.id}`}>
        {t('Available in {{title}}', { title: group.title })}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('{{used}} generated, {{available}} available. Licenses you remove return to {{source}}.', {
          used: group.used_licenses,
          available: group.limit,
          source: source?.title ?? t('the default group'),
        })}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group align="flex-start">
            <NumberInput
              label={t('Available licenses')}
              {...form.getInputProps('limit')}
              min={1}
              max={Math.min(max, GROUP_SIZE_MAX)}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              disabled={disabled}
              w={200}
            />
            <Button type="submit" mt={25} loading={form.submitting} disabled={disabled}>
              {t('Save')}
            </Button>
          </Group>
          <FormError message={form.formError} />
        </Stack>
      </form>
    </Card>
  )
}
