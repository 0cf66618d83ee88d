import { useState } from 'react'
import { Anchor, Button, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { registrationForm, type Platform } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { paths } from '../../../config/paths.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useSignup } from '../api/signup.ts'
import { withPlatform } from '../hooks.ts'
import { AuthLayout } from './AuthLayout.tsx'

export interface RegistrationFormProps {
  platform: Platform | null
}

export function RegistrationForm({ platform }: RegistrationFormProps) {
  const { t } = useTranslation()
  const form = useSchemaForm(registrationForm, { username: '', password: '', repeat_password: '', is_corporate: false })
  const signup = useSignup()
  const [doneFor, setDoneFor] = useState<string | null>(null)
  const loginPath = withPlatform(paths.login, platform)

  const submitValid = form.submit(async (body) => {
    await signup.mutateAsync({
      username: body.username,
      email: body.username,
      password: body.password,
      is_corporate: body.is_corporate,
      ...(platform ? { segment: platform } : {}),
    })
    setDoneFor(body.username)
  })

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
    <AuthLayout title={t('Create an account')}>
      <form onSubmit={submitValid} noValidate aria-label={t('Registration')}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label={t('Account type')}
            fullWidth
            value={form.values.is_corporate ? 'corporate' : 'personal'}
            onChange={(v) => form.setFieldValue('is_corporate', v === 'corporate')}
            data={[
              { value: 'personal', label: t('Personal') },
              { value: 'corporate', label: t('Corporate') },
            ]}
          />
          <TextInput label={t('E-mail')} type="email" autoComplete="email" maxLength={151} required {...form.getInputProps('username')} />
          <PasswordInput
            label={t('Password')}
            autoComplete="new-password"
            maxLength={257}
            required
            description={t('8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol')}
            {...form.getInputProps('password')}
          />
          <PasswordInput label={t('Repeat password')} autoComplete="new-password" maxLength={257} required {...form.getInputProps('repeat_password')} />
          <FormError message={form.formError} />
          <Button type="submit" loading={form.submitting} fullWidth>
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
