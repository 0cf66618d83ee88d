import { Button, Stack, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { sendResetBody, type Platform } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useSendPasswordResetUrl } from '../api/send-password-reset-url.ts'

/** The e-mail form that asks for a set-password link (forgot password and the expired-link screen). */
export function EmailRequestForm({
  platform,
  initialEmail = '',
  submitLabel,
  onSent,
}: {
  platform: Platform | null
  initialEmail?: string
  submitLabel: string
  onSent: (email: string) => void
}) {
  const { t } = useTranslation()
  const form = useSchemaForm(sendResetBody, { client_email: initialEmail })
  const send = useSendPasswordResetUrl()
  const submit = form.submit(async ({ client_email = '' }) => {
    await send.mutateAsync({ client_email, ...(platform ? { segment: platform } : {}) })
    onSent(client_email)
  })

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="sm">
        <TextInput label={t('E-mail')} type="email" autoComplete="email" maxLength={151} required {...form.getInputProps('client_email')} />
        <FormError message={form.formError} />
        <Button type="submit" loading={form.submitting} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  )
}
