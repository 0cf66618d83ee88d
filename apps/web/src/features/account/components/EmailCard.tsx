import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { LIMITS, updateClientBody, type ClientInfo } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useUpdateClient } from '../api/account.ts'

/** The profile update's e-mail, required here: this form sends nothing else. */
const emailSchema = updateClientBody.pick({ email: true }).required()

export function EmailCard({ info }: { info: ClientInfo }) {
  const { t } = useTranslation()
  const update = useUpdateClient()
  const form = useSchemaForm(emailSchema, { email: '' })
  const submit = form.submit(async ({ email }) => {
    if (email.toLowerCase() === info.email.toLowerCase()) return form.setFieldError('email', t('This is already your e-mail'))
    await update.mutateAsync({ email })
    // the success is the pending-change notice, drawn from the profile the answer updates
    form.reset()
  })
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
          <TextInput label={t('New e-mail')} type="email" autoComplete="email" maxLength={LIMITS.emailMax + 1} {...form.getInputProps('email')} />
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={form.submitting}>
              {t('Change e-mail')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
