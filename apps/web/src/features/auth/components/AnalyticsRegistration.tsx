import { useCallback, useState, type FormEvent } from 'react'
import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { z } from 'zod'
import { LIMITS, emailField, isError, passwordField } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { useZodForm } from '../../../lib/form.ts'
import { CAPTCHA_ERRORS, analyticsFillInfo, analyticsSignup } from '../api/analytics-signup.ts'
import { AuthLayout } from './AuthLayout.tsx'
import { Captcha } from './Captcha.tsx'

const schema = z
  .object({ username: emailField, password: passwordField, repeat_password: z.string().min(1, 'password_empty_error') })
  .refine((v) => v.password === v.repeat_password, { message: 'password_match_error', path: ['repeat_password'] })

/** Nuitrack Analytics registration: registration, then exist or fill-info (skippable), then the next URL. */
export function AnalyticsRegistration() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const form = useZodForm(schema, { username: '', password: '', repeat_password: '' })
  const [policy, setPolicy] = useState(true)
  const [token, setToken] = useState<string | null>(null)
  const [captchaError, setCaptchaError] = useState(false)
  const [resetKey, setResetKey] = useState(0)
  const [pending, setPending] = useState(false)
  const [step, setStep] = useState<'registration' | 'exist' | 'fill_info'>('registration')
  const [next, setNext] = useState<string>(paths.analyticsLogin)
  const [credentials, setCredentials] = useState<{ username: string; password: string } | null>(null)
  const onToken = useCallback((v: string | null) => setToken(v), [])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const body = form.validate()
    setCaptchaError(!token)
    if (!body || !policy || !token) return
    setPending(true)
    try {
      const res = await analyticsSignup({ username: body.username, password: body.password, captcha_token: token })
      setCredentials({ username: body.username, password: body.password })
      setNext(res.next)
      setStep(res.step)
    } catch (err) {
      if (isError(err, ...CAPTCHA_ERRORS)) setResetKey((k) => k + 1)
      else if (err instanceof ApiError && !err.shown && err.code) form.setFieldError(isError(err, 'password_invalid') ? 'password' : 'username', err.code)
    } finally {
      setPending(false)
    }
  }

  if (step === 'exist') {
    return (
      <AuthLayout title={t('You already have an account')} subtitle={t('An account with this e-mail exists. Sign in to Nuitrack Analytics with it.')}>
        <Button component={Link} to={paths.analyticsLogin}>
          {t('Sign in')}
        </Button>
      </AuthLayout>
    )
  }
  if (step === 'fill_info' && credentials) return <FillInfo credentials={credentials} onDone={() => navigate(next)} />

  return (
    <AuthLayout title={t('Create a Nuitrack Analytics account')}>
      <form onSubmit={submit} noValidate aria-label={t('Registration')}>
        <Stack>
          <TextInput
            label={t('E-mail')}
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax + 1}
            {...form.text('username')}
            error={form.errors.username}
            required
          />
          <PasswordInput
            label={t('Password')}
            autoComplete="new-password"
            maxLength={LIMITS.passwordMax + 1}
            // the same rules as the portal's own registration (passwordField), told before they are broken
            description={t('8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol')}
            {...form.text('password')}
            error={form.errors.password}
            required
          />
          <PasswordInput
            label={t('Repeat password')}
            autoComplete="new-password"
            maxLength={LIMITS.passwordMax + 1}
            {...form.text('repeat_password')}
            error={form.errors.repeat_password}
            required
          />
          <Checkbox
            checked={policy}
            onChange={(e) => setPolicy(e.currentTarget.checked)}
            label={t('I agree to the privacy policy')}
            error={policy ? undefined : t('Please accept the privacy policy')}
          />
          <Captcha onToken={onToken} resetKey={resetKey} />
          {captchaError && !token && (
            <Text size="sm" c="red.8" role="alert">
              {t('captcha_required_error')}
            </Text>
          )}
          <Button type="submit" loading={pending} disabled={!policy} fullWidth>
            {t('Create account')}
          </Button>
          <Text size="sm" ta="center">
            {t('Already have an account?')}{' '}
            <Anchor component={Link} to={paths.analyticsLogin}>
              {t('Sign in')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  )
}

function FillInfo({ credentials, onDone }: { credentials: { username: string; password: string }; onDone: () => void }) {
  const { t } = useTranslation()
  const [values, setValues] = useState({ name: '', company: '', site: '' })
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!values.name.trim() && !values.company.trim() && !values.site.trim()) return setError(t('fill_info_empty_error'))
    setPending(true)
    try {
      await analyticsFillInfo({ ...credentials, ...values })
      onDone()
    } catch (err) {
      if (err instanceof ApiError && !err.shown) errorStore.show({ kind: 'error', message: err.code ?? 'internal_server_error' })
      setPending(false)
    }
  }
  const field = (key: keyof typeof values, label: string) => (
    <TextInput
      label={label}
      maxLength={256}
      value={values[key]}
      onChange={(e) => (setValues((v) => ({ ...v, [key]: e.currentTarget.value })), setError(null))}
    />
  )
  return (
    <AuthLayout
      title={t('Tell us about you')}
      subtitle={t('We sent a confirmation link to your e-mail. Meanwhile, you may tell us who you are; this step is optional.')}
    >
      <form onSubmit={submit} noValidate aria-label={t('About you')}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {field('name', t('Name'))}
          {field('company', t('Company'))}
          {field('site', t('Website'))}
          <Group justify="space-between">
            <Button variant="subtle" onClick={onDone}>
              {t('Skip')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('Continue')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  )
}
