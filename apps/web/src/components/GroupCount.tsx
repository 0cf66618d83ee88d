import { useState } from 'react'
import { Button, Card, Group, NumberInput, Text, Title } from '@mantine/core'
import { GROUP_SIZE_MAX, checkGroupResize, type GroupView } from '@portal/domain'
import { resizeGroup, useGroups } from '../api/groups.ts'
import { fieldErrorOf } from '../lib/api-client.ts'

/** A group key's available-license count: 1 up to its own limit plus its default group's. */
export function GroupCount({ group, disabled, onSaved }: { group: GroupView; disabled?: boolean; onSaved: () => Promise<unknown> }) {
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
    if (problem === 'below_min') return setError('The group must keep at least 1 available license')
    if (problem === 'above_max') return setError(`At most ${max} licenses can be available in this group`)
    setSaving(true)
    try {
      await resizeGroup(group.id, n)
      await onSaved()
    } catch (err) {
      setError(fieldErrorOf(err)?.message ?? null)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={`group-count-${group.id}`}>
      <Title order={2} size="h4" mb="xs" id={`group-count-${group.id}`}>
        Available in {group.title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {group.used_licenses} generated, {group.limit} available. Licenses you remove return to {source?.title ?? 'the default group'}.
      </Text>
      <form onSubmit={save} noValidate>
        <Group align="flex-start">
          <NumberInput
            label="Available licenses"
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
            Save
          </Button>
        </Group>
      </form>
    </Card>
  )
}
