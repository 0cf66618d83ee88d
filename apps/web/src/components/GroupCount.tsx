import { useState } from 'react'
import { Button, Card, Group, NumberInput, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { GROUP_SIZE_MAX, checkGroupResize, type GroupView } from '@portal/domain'
import { useGroups } from '../api/groups.ts'
import { useResizeGroup } from '../api/group-mutations.ts'
import { fieldErrorOf } from '../lib/api-client.ts'

/** A group key's available-license count: 1 up to its own limit plus its default group's. */
export function GroupCount({ group, disabled }: { group: GroupView; disabled?: boolean }) {
  const { t } = useTranslation()
  const resize = useResizeGroup()
  const source = useGroups().data?.groups.find((g) => g.id === group.source_group_id)
  const { max } = checkGroupResize(group.limit, group, source ?? null)
  const [value, setValue] = useState<number | string>(group.limit)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    const n = Number(value)
    // without a source group on the screen the server has the last word
    const { problem } = checkGroupResize(n, group, source ?? null)
    if (problem === 'below_min') return setError(t('The group must keep at least 1 available license'))
    if (problem === 'above_max') return setError(t('At most {{max}} licenses can be available in this group', { max }))
    setSaving(true)
    try {
      await resize.mutateAsync({ id: group.id, limit: n })
    } catch (err) {
      setError(fieldErrorOf(err)?.message ?? null)
    } finally {
      setSaving(false)
    }
  }
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
      <form onSubmit={save} noValidate>
        <Group align="flex-start">
          <NumberInput
            label={t('Available licenses')}
            value={value}
            onChange={(v) => (setValue(v), setError(null))}
            min={1}
            max={Math.min(max, GROUP_SIZE_MAX)}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            error={error}
            disabled={disabled}
            w={200}
          />
          <Button type="submit" mt={25} loading={saving} disabled={disabled}>
            {t('Save')}
          </Button>
        </Group>
      </form>
    </Card>
  )
}
