import { useState } from 'react'
import { Alert, Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { LIMITS, changePasswordForm } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { changePassword } from '../api/account.ts'

export function PasswordCard() {
  const { t } = useTranslation()
  const form = useSchemaForm(changePasswordForm, { old_password: '', new_password: '', repeat_password: '' })
  const [done, setDone] = useState(false)
  const submit = form.submit(async ({ old_password, new_password }) => {
    await changePassword({ old_password, new_password })
    setDone(true)
    form.reset()
  })
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title" mb="md">
        {t('Password')}
      </Title>
      {done ? (
        <Stack>
          <Alert color="green" role="status">
            {t('Your password has been changed. Other devices signed in to your account were signed out.')}
          </Alert>
          <Button variant="light" onClick={() => setDone(false)}>
            {t('Done')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate aria-label={t('Change password')}>
          <Stack>
            {(['old_password', 'new_password', 'repeat_password'] as const).map((key) => (
              <PasswordInput
                key={key}
                label={t({ old_password: 'Current password', new_password: 'New password', repeat_password: 'Repeat new password' }[key])}
                autoComplete={key === 'old_password' ? 'current-password' : 'new-password'}
                maxLength={LIMITS.passwordMax + 1}
                {...form.getInputProps(key)}
              />
            ))}
            <FormError message={form.formError} />
            <Group justify="flex-end">
              <Button type="submit" loading={form.submitting}>
                {t('Change password')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  )
}
