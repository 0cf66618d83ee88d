import { useState, type FormEvent } from 'react'
import { Anchor, Button, Checkbox, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { isError, registrationForm, type Platform } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { useZodForm } from '../../../lib/form.ts'
import { useSignup } from '../api/signup.ts'
import { withPlatform } from '../hooks.ts'
import { AuthLayout } from './AuthLayout.tsx'

export interface RegistrationFormProps {
  platform: Platform | null
  /** analytics registration: privacy-policy box, ticked by default, required to submit */
  analytics?: boolean
}

export function RegistrationForm({ platform, analytics = false }: RegistrationFormProps) {
  const { t } = useTranslation()
  const form = useZodForm(registrationForm, { username: '', password: '', repeat_password: '', is_corporate: false })
  const signup = useSignup()
  const [policy, setPolicy] = useState(true)
  const [policyError, setPolicyError] = useState(false)
  const [doneFor, setDoneFor] = useState<string | null>(null)
  const loginPath = analytics ? paths.analyticsLogin : withPlatform(paths.login, platform)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body = form.validate()
    if (analytics && !policy) setPolicyError(true)
    if (!body || (analytics && !policy)) return
    const segment = analytics ? 'nuitrack-analytics' : platform
    signup.mutate(
      {
        username: body.username,
        email: body.username,
        password: body.password,
        is_corporate: body.is_corporate,
        ...(segment ? { segment } : {}),
      },
      {
        onSuccess: () => setDoneFor(body.username),
        onError: (err) => {
          if (!(err instanceof ApiError) || err.shown || !err.code) return
          if (isError(err, 'email_in_use', 'email_invalid')) form.setFieldError('username', err.code)
          else if (isError(err, 'password_invalid')) form.setFieldError('password', err.code)
        },
      },
    )
  }

  if (doneFor) {
    return (
      <AuthLayout title={t('Registration complete')}>
        <Text data-testid="registration-complete">{t('confirm.sent_to', { email: doneFor })}</Text>
        <Text>{t('Follow the link in the e-mail to confirm your account. The e-mail arrives within 5 minutes.')}</Text>
        <Button component={Link} to={loginPath}>
          {t('Return to login')}
        </Button>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title={analytics ? t('Create a Nuitrack Analytics account') : t('Create an account')}>
      <form onSubmit={submit} noValidate aria-label={t('Registration')}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label={t('Account type')}
            fullWidth
            value={form.values.is_corporate ? 'corporate' : 'personal'}
            onChange={(v) => form.set('is_corporate', v === 'corporate')}
            data={[
              { value: 'personal', label: t('Personal') },
              { value: 'corporate', label: t('Corporate') },
            ]}
          />
          <TextInput label={t('E-mail')} type="email" autoComplete="email" maxLength={151} required {...form.text('username')} error={form.errors.username} />
          <PasswordInput
            label={t('Password')}
            autoComplete="new-password"
            maxLength={257}
            required
            description={t('8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol')}
            {...form.text('password')}
            error={form.errors.password}
          />
          <PasswordInput
            label={t('Repeat password')}
            autoComplete="new-password"
            maxLength={257}
            required
            {...form.text('repeat_password')}
            error={form.errors.repeat_password}
          />
          {analytics ? (
            <Checkbox
              checked={policy}
              onChange={(e) => {
                setPolicy(e.currentTarget.checked)
                setPolicyError(false)
              }}
              label={t('I agree to the privacy policy')}
              error={policyError ? t('Please accept the privacy policy') : undefined}
            />
          ) : null}
          <Button type="submit" loading={signup.isPending} fullWidth>
            {t('Create account')}
          </Button>
          <Text size="sm" ta="center">
            {t('Already have an account?')}{' '}
            <Anchor component={Link} to={loginPath}>
              {t('Sign in')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  )
}
