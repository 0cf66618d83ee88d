import { Button, Center, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { paths } from '../../../config/paths.ts'
import { useLogged } from '../../../lib/session.ts'
import { useConfirm } from '../api/confirm.ts'
import { AuthLayout } from '../components/AuthLayout.tsx'
import { useSignInPlatform, withPlatform } from '../hooks.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** /app/confirm/?client_id=&token= (or ?id=&token=) and /app/registration-confirm/:id/:token/ */
export function ConfirmRoute() {
  const { t } = useTranslation()
  const params = useParams()
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const logged = useLogged()
  const platform = useSignInPlatform()

  const rawId = params.id ?? search.get('client_id') ?? search.get('id') ?? ''
  const token = params.token ?? search.get('token') ?? ''
  const clientId = Number(rawId)
  const valid = Number.isInteger(clientId) && clientId > 0 && token !== ''
  const confirm = useConfirm(clientId, token, valid)

  const toLogin = () => void navigate(logged ? paths.logout : withPlatform(paths.login, platform))

  if (valid && confirm.isPending) {
    return (
      <AuthLayout title={t('Confirming your e-mail')}>
        <Center py="lg">
          <Spinner label={t('Confirming')} />
        </Center>
      </AuthLayout>
    )
  }
  if (!valid || confirm.isError || !confirm.data) {
    return (
      <AuthLayout title={t('Confirmation failed')}>
        <Text data-testid="confirmation-error">{t('The confirmation link is invalid or has expired.')}</Text>
        <Button onClick={toLogin}>{t('Return to login')}</Button>
      </AuthLayout>
    )
  }
  const emailChange = confirm.data.kind === 'email_change'
  return (
    <AuthLayout title={emailChange ? t('E-mail changed') : t('Registration confirmed')}>
      <Text data-testid="confirmation-success">
        {emailChange ? t('email_change.done', { email: confirm.data.email }) : t('Your account is confirmed. You can now sign in.')}
      </Text>
      {emailChange && logged ? (
        // signed in already: the change is done, nothing to sign in to
        <Button component={Link} to={paths.account}>
          {t('Back to your account')}
        </Button>
      ) : (
        <Button onClick={toLogin}>{t('Return to login')}</Button>
      )}
    </AuthLayout>
  )
}
