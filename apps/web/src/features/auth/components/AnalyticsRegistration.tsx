import { useCallback, useState, type FormEvent } from 'react'
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { LIMITS, analyticsFillInfoBody, analyticsSignupBody, isError, text } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { EXTERNAL, paths } from '../../../config/paths.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { CAPTCHA_ERRORS, analyticsFillInfo, analyticsSignup } from '../api/analytics-signup.ts'
import { AuthLayout } from './AuthLayout.tsx'
import { Captcha } from './Captcha.tsx'

/** The server's body without the captcha (a widget of its own), with the repeated password checked in the browser. */
const schema = analyticsSignupBody
  .omit({ captcha_token: true })
  .extend({ repeat_password: text().min(1, 'password_empty_error') })
  .refine((v) => v.password === v.repeat_password, { message: 'password_match_error', path: ['repeat_password'] })

/** Nuitrack Analytics registration: registration, then exist or fill-info (skippable), then the next URL. */
export function AnalyticsRegistration() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const form = useSchemaForm(schema, { username: '', password: '', repeat_password: '' })
  // consent is given, never presumed: the box starts empty
  const [policy, setPolicy] = useState(false)
  const [policyError, setPolicyError] = useState(false)
  const [token, setToken] = useState<string | null>(null)
  const [captchaError, setCaptchaError] = useState(false)
  const [resetKey, setResetKey] = useState(0)
  const [step, setStep] = useState<'registration' | 'exist' | 'fill_info'>('registration')
  const [next, setNext] = useState<string>(paths.analyticsLogin)
  const [credentials, setCredentials] = useState<{ username: string; password: string } | null>(null)
  const onToken = useCallback((v: string | null) => setToken(v), [])

  const submitValid = form.submit(async (body) => {
    if (!token) return
    try {
      const res = await analyticsSignup({ username: body.username, password: body.password, captcha_token: token })
      setCredentials({ username: body.username, password: body.password })
      setNext(res.next)
      setStep(res.step)
    } catch (err) {
      if (!isError(err, ...CAPTCHA_ERRORS)) throw err
      setResetKey((k) => k + 1)
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    setCaptchaError(!token)
    setPolicyError(!policy)
    if (policy && token) return submitValid(e)
    e.preventDefault()
    form.validate()
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
          <TextInput label={t('E-mail')} type="email" autoComplete="email" maxLength={LIMITS.emailMax + 1} {...form.getInputProps('username')} required />
          <PasswordInput
            label={t('Password')}
            autoComplete="new-password"
            maxLength={LIMITS.passwordMax + 1}
            // the same rules as the portal's own registration (passwordField), told before they are broken
            description={t('8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol')}
            {...form.getInputProps('password')}
            required
          />
          <PasswordInput
            label={t('Repeat password')}
            autoComplete="new-password"
            maxLength={LIMITS.passwordMax + 1}
            {...form.getInputProps('repeat_password')}
            required
          />
          <Checkbox
            checked={policy}
            onChange={(e) => {
              setPolicy(e.currentTarget.checked)
              setPolicyError(false)
            }}
            label={
              <Trans
                defaults="I agree to the <policy>privacy policy</policy>"
                components={{ policy: <Anchor href={EXTERNAL.privacyPolicy} target="_blank" rel="noopener noreferrer" inherit /> }}
              />
            }
            error={policyError ? t('Please accept the privacy policy') : undefined}
          />
          <Captcha onToken={onToken} resetKey={resetKey} />
          {captchaError && !token && (
            <Text size="sm" c="red.8" role="alert">
              {t('captcha_required_error')}
            </Text>
          )}
          <FormError message={form.formError} />
          <Button type="submit" loading={form.submitting} fullWidth>
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
  const form = useSchemaForm(analyticsFillInfoBody, { ...credentials, name: '', company: '', site: '' })
  const submit = form.submit(async (body) => {
    await analyticsFillInfo(body)
    onDone()
  })
  // the schema puts "at least one of them" on name; it is about the three, so it shows above them
  const empty = form.errors.name
  const field = (key: 'name' | 'company' | 'site', label: string) => (
    <TextInput
      label={label}
      maxLength={256}
      {...form.getInputProps(key, { withError: key !== 'name' })}
      onChange={(e) => {
        form.setFieldValue(key, e.currentTarget.value)
        form.clearFieldError('name')
      }}
    />
  )
  return (
    <AuthLayout
      title={t('Tell us about you')}
      subtitle={t('We sent a confirmation link to your e-mail. Meanwhile, you may tell us who you are; this step is optional.')}
    >
      <form onSubmit={submit} noValidate aria-label={t('About you')}>
        <Stack>
          <FormError message={empty ? t(String(empty)) : form.formError} />
          {field('name', t('Name'))}
          {field('company', t('Company'))}
          {field('site', t('Website'))}
          <Group justify="space-between">
            <Button variant="subtle" onClick={onDone}>
              {t('Skip')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {t('Continue')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  )
}
