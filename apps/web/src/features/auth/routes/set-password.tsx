import { useState } from 'react'
import { Alert, Anchor, Button, Center, PasswordInput, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router'
import { isError, isPlatform, passwordContainsEmail, sanitizeNext, setPasswordForm, type Platform } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { paths } from '../../../config/paths.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { forget } from '../../../lib/session.ts'
import { RESET_TOKEN_ERRORS, useResetPassword } from '../api/reset-password.ts'
import { useValidateConfirmationToken } from '../api/validate-confirmation-token.ts'
import { AuthLayout } from '../components/AuthLayout.tsx'
import { EmailRequestForm } from '../components/EmailRequestForm.tsx'
import { useSignInPlatform, withPlatform, type SignInState } from '../hooks.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { Spinner } from '../../../components/Spinner.tsx'

export function SetPasswordRoute() {
  const { id = '', token = '' } = useParams()
  const platform = useSignInPlatform()
  const check = useValidateConfirmationToken(id, token)
  const [expired, setExpired] = useState(false)
  const { t } = useTranslation()

  if (check.isPending) {
    return (
      <AuthLayout title={t('Set a new password')}>
        <Center py="lg">
          <Spinner label={t('Checking the link')} />
        </Center>
      </AuthLayout>
    )
  }
  if (check.isError || expired) return <ExpiredLink platform={platform} />
  return <NewPasswordForm id={id} token={token} email={check.data.email} platform={platform} onExpired={() => setExpired(true)} />
}

export function ExpiredLink({ platform, email = '' }: { platform: Platform | null; email?: string }) {
  const { t } = useTranslation()
  const [sentTo, setSentTo] = useState<string | null>(null)
  return (
    <AuthLayout title={t('This link has expired')}>
      <Text data-testid="link-expired">{t('The link is invalid or outdated. Enter your e-mail and we will send you a new one.')}</Text>
      {sentTo ? (
        <Alert color="green" role="status" title={t('Link sent')}>
          {t('We sent a password reset link to {{email}}. It arrives within 5 minutes.', { email: sentTo })}
        </Alert>
      ) : (
        <EmailRequestForm platform={platform} initialEmail={email} submitLabel={t('Send a new link')} onSent={setSentTo} />
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to={withPlatform(paths.login, platform)}>
          {t('Back to login')}
        </Anchor>
      </Text>
    </AuthLayout>
  )
}

function NewPasswordForm({
  id,
  token,
  email,
  platform,
  onExpired,
}: {
  id: string
  token: string
  email: string
  platform: Platform | null
  onExpired: () => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const [search] = useSearchParams()
  const form = useSchemaForm(setPasswordForm, { new_password: '', repeat_password: '' })
  const reset = useResetPassword()

  const submit = form.submit(async (body) => {
    if (passwordContainsEmail(body.new_password, email)) {
      form.setFieldError('new_password', 'password_contains_email_error')
      return
    }
    try {
      await reset.mutateAsync({ client_id: Number(id), confirmation_token: token, new_password: body.new_password })
    } catch (err) {
      if (isError(err, ...RESET_TOKEN_ERRORS)) return onExpired()
      throw err
    }
    notifySuccess(t('Password changed'), t('You are signed in with your new password.'))
    forget()
    const state = (location.state ?? {}) as SignInState
    const statePlatform = isPlatform(state.platform) ? state.platform : platform
    const target = sanitizeNext(search.get('next')) ?? (statePlatform ? paths.platform(statePlatform) : paths.root)
    void navigate(target, { replace: true })
  })

  return (
    <AuthLayout title={t('Set a new password')}>
      <Text size="sm" c="dimmed">
        {t('Choose a new password for {{email}}.', { email })}
      </Text>
      <form onSubmit={submit} noValidate aria-label={t('Set a new password')}>
        <Stack gap="sm">
          <PasswordInput
            label={t('New password')}
            autoComplete="new-password"
            maxLength={257}
            required
            description={t('8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol')}
            {...form.getInputProps('new_password')}
          />
          <PasswordInput label={t('Repeat password')} autoComplete="new-password" maxLength={257} required {...form.getInputProps('repeat_password')} />
          <FormError message={form.formError} />
          <Button type="submit" loading={form.submitting} fullWidth>
            {t('Save password')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  )
}
