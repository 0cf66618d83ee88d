import { useState } from 'react'
import { Anchor, Button, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../../config/paths.ts'
import { AuthLayout } from '../components/AuthLayout.tsx'
import { EmailRequestForm } from '../components/EmailRequestForm.tsx'
import { useSignInPlatform, withPlatform } from '../hooks.ts'

export function ForgotPasswordRoute() {
  const { t } = useTranslation()
  const platform = useSignInPlatform()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const login = withPlatform(paths.login, platform)

  if (sentTo) {
    return (
      <AuthLayout title={t('Check your e-mail')}>
        <Text data-testid="reset-sent">{t('We sent a password reset link to {{email}}. It arrives within 5 minutes.', { email: sentTo })}</Text>
        <Button component={Link} to={login}>
          {t('Return to login')}
        </Button>
      </AuthLayout>
    )
  }
  return (
    <AuthLayout title={t('Forgot password')}>
      <Text size="sm" c="dimmed">
        {t('Enter the e-mail of your account and we will send you a link to set a new password.')}
      </Text>
      <EmailRequestForm platform={platform} submitLabel={t('Send reset link')} onSent={setSentTo} />
      <Text size="sm" ta="center">
        <Anchor component={Link} to={login}>
          {t('Back to login')}
        </Anchor>
      </Text>
    </AuthLayout>
  )
}
