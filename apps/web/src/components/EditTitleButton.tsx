import { useState } from 'react'
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { LICENSE_TITLE_MAX, checkTitle } from '@portal/domain'
import { fieldErrorOf } from '../lib/api-client.ts'

/** A button that opens a dialog to change a license's or a group's title (trimmed, 1 to 256). */
export function EditTitleButton(props: {
  current: string
  button: string
  dialogTitle: string
  fieldLabel: string
  disabled?: boolean
  onSave: (title: string) => Promise<unknown>
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState(props.current)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    const problem = checkTitle(value)
    if (problem) return setError(t(problem))
    setSaving(true)
    try {
      await props.onSave(value)
      setOpen(false)
    } catch (err) {
      setError(fieldErrorOf(err)?.message ?? null)
    } finally {
      setSaving(false)
    }
  }
  return (
    <>
      <Button variant="subtle" size="xs" onClick={() => (setValue(props.current), setError(null), setOpen(true))} disabled={props.disabled}>
        {t(props.button)}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t(props.dialogTitle)} centered>
        <form onSubmit={save} noValidate>
          <Stack>
            <TextInput
              label={t(props.fieldLabel)}
              value={value}
              maxLength={LICENSE_TITLE_MAX + 1}
              onChange={(e) => (setValue(e.currentTarget.value), setError(null))}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                {t('Cancel')}
              </Button>
              <Button type="submit" loading={saving}>
                {t('Save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  )
}
