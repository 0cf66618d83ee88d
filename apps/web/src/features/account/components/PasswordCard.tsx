import { useState } from 'react'
import { Alert, Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { LIMITS, changePasswordForm } from '@portal/domain'
import { useZodForm } from '../../../lib/form.ts'
import { changePassword } from '../api/account.ts'

export function PasswordCard() {
  const { t } = useTranslation()
  const form = useZodForm(changePasswordForm, { old_password: '', new_password: '', repeat_password: '' })
  const [pending, setPending] = useState(false)
  const [done, setDone] = useState(false)
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const v = form.validate()
    if (!v) return
    setPending(true)
    try {
      await changePassword({ old_password: v.old_password, new_password: v.new_password })
      setDone(true)
      form.setValues({ old_password: '', new_password: '', repeat_password: '' })
    } catch (err) {
      form.showServerError(err)
    } finally {
      setPending(false)
    }
  }
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
                {...form.text(key)}
                error={form.errors[key]}
              />
            ))}
            <Group justify="flex-end">
              <Button type="submit" loading={pending}>
                {t('Change password')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  )
}
