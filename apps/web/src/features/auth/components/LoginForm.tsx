import { useState } from 'react'
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { isError, signinBody, type Platform, type ProfileResponse } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { paths } from '../../../config/paths.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useSignin } from '../api/signin.ts'
import { withPlatform } from '../hooks.ts'
import { AuthLayout } from './AuthLayout.tsx'
import { ConfirmEmailScreen } from './ConfirmEmailScreen.tsx'

export interface LoginFormProps {
  platform: Platform | null
  /** analytics cloud sign-in (section 2): nuitrack_analytics_login true */
  analytics?: boolean
  onSignedIn: (profile: ProfileResponse) => void
}

export function LoginForm({ platform, analytics = false, onSignedIn }: LoginFormProps) {
  const { t } = useTranslation()
  const justRegistered = new URLSearchParams(useLocation().search).has('registered')
  const form = useSchemaForm(signinBody, { username: '', password: '' })
  const signin = useSignin()
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null)

  const submit = form.submit(async (body) => {
    try {
      onSignedIn(await signin.mutateAsync({ ...body, nuitrack_analytics_login: analytics }))
    } catch (err) {
      if (isError(err, 'email_not_confirmed')) setUnconfirmed(body.username)
      else if (isError(err, 'invalid_credentials')) form.setFormError(t('login_failed'))
      else throw err
    }
  })

  if (unconfirmed) return <ConfirmEmailScreen email={unconfirmed} platform={platform} onBack={() => setUnconfirmed(null)} />

  const registration = analytics ? paths.analyticsRegistration : withPlatform(paths.registration, platform)
  return (
    <AuthLayout title={analytics ? t('Sign in to Nuitrack Analytics') : t('Sign in')}>
      {justRegistered && (
        <Alert color="green" role="status" mb="sm">
          {t('Your account is created. Confirm your e-mail with the link we sent, then sign in.')}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t('Sign in')}>
        <Stack gap="sm">
          <FormError message={form.formError} testId="login-error" />
          <TextInput label={t('E-mail')} type="email" autoComplete="username" maxLength={151} required {...form.getInputProps('username')} />
          <PasswordInput label={t('Password')} autoComplete="current-password" maxLength={257} required {...form.getInputProps('password')} />
          <Group justify="flex-end">
            <Anchor component={Link} to={withPlatform(paths.forgotPassword, platform)} size="sm">
              {t('Forgot password?')}
            </Anchor>
          </Group>
          <Button type="submit" loading={form.submitting} fullWidth>
            {t('Sign in')}
          </Button>
          <Text size="sm" ta="center">
            {t("Don't have an account?")}{' '}
            <Anchor component={Link} to={registration}>
              {t('Create an account')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  )
}
