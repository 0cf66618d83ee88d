import { Button, Group, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { isError } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { useRevertEmail } from '../api/email-revert.ts'
import { AuthLayout } from '../components/AuthLayout.tsx'

/**
 * /app/email-revert/:id/:token/, the link mailed to the address an account left: a button undoes
 * the change (a link opened by a mail scanner changes nothing), then the way to a new password.
 */
export function EmailRevertRoute() {
  const { t } = useTranslation()
  const { id = '', token = '' } = useParams()
  const revert = useRevertEmail()
  const clientId = Number(id)
  const valid = /^\d{1,18}$/.test(id) && clientId > 0 && token !== ''

  if (revert.isSuccess) {
    return (
      <AuthLayout title={t('E-mail change undone')}>
        <Text data-testid="email-revert-done">{t('email_revert.done', { email: revert.data.email })}</Text>
        <Text>{t('Everyone was signed out of the account. If someone else changed the e-mail, they may know your password: set a new one.')}</Text>
        <Group>
          <Button component={Link} to={paths.forgotPassword}>
            {t('Set a new password')}
          </Button>
          <Button component={Link} to={paths.login} variant="default">
            {t('Return to login')}
          </Button>
        </Group>
      </AuthLayout>
    )
  }
  const taken = isError(revert.error, 'email_in_use')
  if (!valid || isError(revert.error, 'token_invalid', 'client_not_found')) {
    return (
      <AuthLayout title={t('The link does not work')}>
        <Text data-testid="email-revert-error">{t('The link is invalid, was used already or is older than 7 days.')}</Text>
        <Button component={Link} to={paths.login}>
          {t('Return to login')}
        </Button>
      </AuthLayout>
    )
  }
  return (
    <AuthLayout title={t('Undo the e-mail change?')}>
      <Text>{t('The account will take this address back, and everyone signed in to it will be signed out.')}</Text>
      {taken && (
        <Text c="red.8" role="alert">
          {t('Another account uses this address now, so it cannot be given back. Contact support.')}
        </Text>
      )}
      <Button onClick={() => revert.mutate({ clientId, token })} loading={revert.isPending} disabled={taken}>
        {t('Undo the change')}
      </Button>
    </AuthLayout>
  )
}
