import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { LIMITS, emailField, type ClientInfo } from '@portal/domain'
import { useZodForm } from '../../../lib/form.ts'
import { useUpdateClient } from '../api/account.ts'

const emailSchema = z.object({ email: emailField })

export function EmailCard({ info }: { info: ClientInfo }) {
  const { t } = useTranslation()
  const update = useUpdateClient()
  const form = useZodForm(emailSchema, { email: '' })
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const v = form.validate()
    if (!v) return
    if (v.email.toLowerCase() === info.email.toLowerCase()) return form.setErrors({ email: t('This is already your e-mail') })
    try {
      await update.mutateAsync({ email: v.email })
      form.set('email', '')
    } catch (err) {
      form.showServerError(err)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="email-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="email-title">
            {t('E-mail')}
          </Title>
          <Text size="sm" className="portal-wrap-anywhere">
            {t('Current:')} <b data-testid="current-email">{info.email}</b>
          </Text>
          {info.pending_email && (
            <Alert color="blue" role="status" className="portal-wrap-anywhere" data-testid="pending-email-notice">
              {t('We sent a confirmation link to {{email}}. The change takes effect once you follow it.', { email: info.pending_email })}
            </Alert>
          )}
          <TextInput
            label={t('New e-mail')}
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax + 1}
            {...form.text('email')}
            error={form.errors.email}
          />
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={update.isPending}>
              {t('Change e-mail')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
