import { useState, type FormEvent } from 'react'
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { isError, signinForm, type Platform, type ProfileResponse } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { useZodForm } from '../../../lib/form.ts'
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
  const form = useZodForm(signinForm, { username: '', password: '' })
  const signin = useSignin()
  const [formError, setFormError] = useState<string | null>(null)
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setFormError(null)
    const body = form.validate()
    if (!body) return
    signin.mutate(
      { username: body.username, password: body.password, nuitrack_analytics_login: analytics },
      {
        onSuccess: onSignedIn,
        onError: (err) => {
          if (!(err instanceof ApiError) || err.shown) return
          // the code is the translation key of the field's message
          if (isError(err, 'wrong_password')) form.setFieldError('password', err.code!)
          else if (isError(err, 'client_not_found_by_email')) form.setFieldError('username', err.code!)
          else if (isError(err, 'email_not_confirmed')) setUnconfirmed(body.username)
          else if (isError(err, 'invalid_credentials')) setFormError('login_failed')
        },
      },
    )
  }

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
          {formError ? (
            <Alert color="red" role="alert" data-testid="login-error">
              {t(formError)}
            </Alert>
          ) : null}
          <TextInput
            label={t('E-mail')}
            type="email"
            autoComplete="username"
            maxLength={151}
            required
            {...form.text('username')}
            error={form.errors.username}
          />
          <PasswordInput
            label={t('Password')}
            autoComplete="current-password"
            maxLength={257}
            required
            {...form.text('password')}
            error={form.errors.password}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to={withPlatform(paths.forgotPassword, platform)} size="sm">
              {t('Forgot password?')}
            </Anchor>
          </Group>
          <Button type="submit" loading={signin.isPending} fullWidth>
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
