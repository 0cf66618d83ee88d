import { Alert, Button, Group, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ERRORS, type Platform } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { useSendConfirmationUrl } from '../api/send-confirmation-url.ts'
import { withPlatform } from '../hooks.ts'
import { AuthLayout } from './AuthLayout.tsx'

/** Shown when sign-in answers email_not_confirmed: the e-mail is not confirmed yet. */
export function ConfirmEmailScreen({ email, platform, onBack }: { email: string; platform: Platform | null; onBack?: () => void }) {
  const { t } = useTranslation()
  const resend = useSendConfirmationUrl()
  return (
    <AuthLayout title={t('Confirm your e-mail')}>
      <Text>{t(ERRORS.email_not_confirmed.code)}</Text>
      <Text>{t('confirm.sent_to', { email })}</Text>
      {resend.isSuccess ? (
        <Alert color="green" role="status" title={t('Link sent')}>
          {t('A new confirmation link is on its way. It arrives within 5 minutes.')}
        </Alert>
      ) : null}
      <Group justify="space-between">
        {onBack ? (
          <Button variant="subtle" onClick={onBack}>
            {t('Back to login')}
          </Button>
        ) : (
          <Button variant="subtle" component={Link} to={withPlatform(paths.login, platform)}>
            {t('Back to login')}
          </Button>
        )}
        <Button loading={resend.isPending} onClick={() => resend.mutate({ client_email: email, ...(platform ? { segment: platform } : {}) })}>
          {t('Resend')}
        </Button>
      </Group>
    </AuthLayout>
  )
}
