import type { ReactNode } from 'react'
import { Alert, Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { invitationRegisterForm, isError } from '@portal/domain'
import type { ApiError } from '../../../lib/api-client.ts'
import { FormError } from '../../../components/FormError.tsx'
import { MAIN_ID, SkipLink } from '../../../components/SkipLink.tsx'
import { paths } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { useLogged } from '../../../lib/session.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useAcceptInvitation } from '../api/accept-invitation.ts'
import { useInvitation } from '../api/invitation.ts'
import { useRegisterThroughInvitation } from '../api/register-invitation.ts'
import { roleLabel } from '../components/roles.ts'
import { Spinner } from '../../../components/Spinner.tsx'

function InvitationLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box mih="100vh" bg="gray.0" py={48} px="md">
      <SkipLink />
      <Center component="main" id={MAIN_ID} tabIndex={-1}>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 32 }} w="100%" maw={460}>
          <Stack gap="md">
            <Title order={1} fz={24}>
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  )
}

/**
 * /app/invitation/{token}/: the mail's link. A person without an account sets a password here and is
 * signed in; one with an account signs in with the invited e-mail and accepts.
 */
export function InvitationPage() {
  const { token = '' } = useParams()
  const { t } = useTranslation()
  const invitation = useInvitation(token)
  if (invitation.isPending) {
    return (
      <InvitationLayout title={t('Invitation')}>
        <Center py="lg">
          <Spinner label={t('Checking the invitation')} />
        </Center>
      </InvitationLayout>
    )
  }
  if (invitation.isError) {
    return (
      <InvitationLayout title={t('This invitation does not work')}>
        <Text data-testid="invitation-invalid">{t('This invitation is invalid, already used or expired. Ask for a new one')}</Text>
        <Anchor component={Link} to={paths.login}>
          {t('Back to login')}
        </Anchor>
      </InvitationLayout>
    )
  }
  const { org_name, email, role, account_exists } = invitation.data
  return (
    <InvitationLayout title={t('Join {{org}}', { org: org_name })}>
      <Text>{t('{{org}} invites {{email}} to the 3DiVi portal as {{role}}.', { org: org_name, email, role: roleLabel(role, t) })}</Text>
      {account_exists ? <AcceptInvitation token={token} email={email} /> : <RegisterThroughInvitation token={token} email={email} />}
    </InvitationLayout>
  )
}

function AcceptInvitation({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation()
  const logged = useLogged()
  const navigate = useNavigate()
  const accept = useAcceptInvitation()
  if (!logged) {
    const here = `/app/invitation/${encodeURIComponent(token)}/`
    return (
      <Stack gap="sm">
        <Text size="sm">{t('Sign in as {{email}} to accept.', { email })}</Text>
        <Button component={Link} to={`${paths.login}?next=${encodeURIComponent(here)}`}>
          {t('Sign in to accept')}
        </Button>
      </Stack>
    )
  }
  const refused = isError(accept.error, 'invitation_other_email', 'already_member', 'invitation_invalid', 'not_corporate') ? (accept.error as ApiError) : null
  return (
    <Stack gap="sm">
      {refused ? (
        <Alert color="red" role="alert">
          {t(refused.code ?? '')}
        </Alert>
      ) : null}
      <Button
        loading={accept.isPending}
        onClick={() =>
          accept.mutate(token, {
            onSuccess: () => {
              notifySuccess(t('Welcome aboard'), t('You now act in the organisation. Switch accounts from the menu under your name.'))
              void navigate(paths.dashboard('nuitrack'), { replace: true })
            },
          })
        }
      >
        {t('Accept the invitation')}
      </Button>
    </Stack>
  )
}

function RegisterThroughInvitation({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const register = useRegisterThroughInvitation()
  const form = useSchemaForm(invitationRegisterForm, { password: '', repeat_password: '' })
  const submit = form.submit(async (body) => {
    await register.mutateAsync({ token, password: body.password })
    notifySuccess(t('Welcome aboard'), t('Your account is ready and you act in the organisation.'))
    void navigate(paths.dashboard('nuitrack'), { replace: true })
  })
  return (
    <form onSubmit={submit} noValidate aria-label={t('Create your account')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('Choose a password for {{email}}: your own account, with which you act in the organisation.', { email })}
        </Text>
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
          {t('Create account and join')}
        </Button>
      </Stack>
    </form>
  )
}
