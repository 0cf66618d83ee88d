import { useState, type FormEvent } from 'react'
import { Button, Stack, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { emailField, isError, type Platform } from '@portal/domain'
import { ApiError } from '../../../lib/api-client.ts'
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
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState<string | null>(null)
  const send = useSendPasswordResetUrl()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const r = emailField.safeParse(email)
    if (!r.success) {
      setError(r.error.issues[0]?.message ?? 'email_validation_error')
      return
    }
    setError(null)
    send.mutate(
      { client_email: r.data, ...(platform ? { segment: platform } : {}) },
      {
        onSuccess: () => onSent(r.data),
        onError: (err) => {
          if (err instanceof ApiError && !err.shown && isError(err, 'client_not_found_by_email')) setError(err.code)
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="sm">
        <TextInput
          label={t('E-mail')}
          type="email"
          autoComplete="email"
          maxLength={151}
          required
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value)
            setError(null)
          }}
          error={error ? t(error) : undefined}
        />
        <Button type="submit" loading={send.isPending} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  )
}
