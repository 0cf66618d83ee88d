import { useState } from 'react'
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useCan } from '../lib/use-can.ts'
import { LICENSE_TITLE_MAX, titleBody } from '@portal/domain'
import { useSchemaForm } from '../lib/use-schema-form.ts'
import { FormError } from './FormError.tsx'

interface EditTitleProps {
  current: string
  button: string
  dialogTitle: string
  fieldLabel: string
  disabled?: boolean
  onSave: (title: string) => Promise<unknown>
}

/** A button that opens a dialog to change a license's or a group's title (trimmed, 1 to 256). */
export function EditTitleButton(props: EditTitleProps) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  // a title is the license's or the group's: changed by a role that may change licenses
  const can = useCan('licenses')
  if (!can) return null
  return (
    <>
      <Button variant="subtle" size="xs" onClick={() => setOpen(true)} disabled={props.disabled}>
        {t(props.button)}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t(props.dialogTitle)} centered>
        {/* a new form per opening, so each starts from the current title */}
        {open && <EditTitleForm {...props} onClose={() => setOpen(false)} />}
      </Modal>
    </>
  )
}

function EditTitleForm({ current, fieldLabel, onSave, onClose }: EditTitleProps & { onClose: () => void }) {
  const { t } = useTranslation()
  const form = useSchemaForm(titleBody, { title: current })
  const submit = form.submit(async ({ title }) => {
    await onSave(title)
    // the success is the new title on the page behind the dialog
    onClose()
  })
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t(fieldLabel)} maxLength={LICENSE_TITLE_MAX + 1} {...form.getInputProps('title')} data-autofocus />
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
