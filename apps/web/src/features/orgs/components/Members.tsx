import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { ROLES, inviteBody, isError, type Invitation, type Member, type Role } from '@portal/domain'
import { EmptyState } from '../../../components/EmptyState.tsx'
import { FormError } from '../../../components/FormError.tsx'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { paths } from '../../../config/paths.ts'
import type { ApiError } from '../../../lib/api-client.ts'
import { formatDate } from '../../../lib/format.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { useCan } from '../../../lib/use-can.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useInviteMember } from '../api/invite-member.ts'
import { useLeaveOrg } from '../api/leave-org.ts'
import { useSetMemberRole } from '../api/member-role.ts'
import { useMembers } from '../api/members.ts'
import { useRemoveMember } from '../api/remove-member.ts'
import { useRevokeInvitation } from '../api/revoke-invitation.ts'
import { roleHint, roleLabel } from './roles.ts'

/** The organisation's people: who is in it with which role, who is invited, and (for owners) the means to change that. */
export function Members({ corporate }: { corporate: boolean }) {
  const { t } = useTranslation()
  const manage = useCan('members')
  const members = useMembers(corporate)
  if (!corporate) {
    return (
      <Alert color="indigo" title={t('A personal account has no members')} data-testid="members-personal">
        <Text size="sm">
          {t('Switch to a corporate account to invite colleagues and give each a role.')}{' '}
          {manage ? (
            <Anchor component={Link} to={paths.account}>
              {t('Account settings')}
            </Anchor>
          ) : null}
        </Text>
      </Alert>
    )
  }
  return (
    <Stack gap="lg">
      {manage ? <InviteForm /> : null}
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Title order={2} size="h4" mb="sm">
          {t('Members')}
        </Title>
        {members.isPending ? (
          <Stack gap="xs" aria-label={t('Loading members')}>
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : members.isError ? (
          <Alert color="red">{t('The members could not be loaded. Reload the page to try again.')}</Alert>
        ) : (
          <MemberTable members={members.data.members} manage={manage} />
        )}
      </Paper>
      {members.data && members.data.invitations.length > 0 ? <Invitations invitations={members.data.invitations} manage={manage} /> : null}
    </Stack>
  )
}

function InviteForm() {
  const { t } = useTranslation()
  const invite = useInviteMember()
  const form = useSchemaForm(inviteBody, { email: '', role: 'developer' as Role })
  const submit = form.submit(async (body) => {
    await invite.mutateAsync(body)
    notifySuccess(t('Invitation sent'), t('We sent {{email}} a link to join. It works for 7 days.', { email: body.email }))
    form.setValues({ email: '', role: body.role })
  })
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <form onSubmit={submit} noValidate aria-label={t('Invite a member')}>
        <Title order={2} size="h4" mb="sm">
          {t('Invite a member')}
        </Title>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput label={t('E-mail')} type="email" autoComplete="off" required style={{ flex: '1 1 240px' }} {...form.getInputProps('email')} />
          <NativeSelect
            label={t('Role')}
            data={ROLES.map((r) => ({ value: r, label: roleLabel(r, t) }))}
            style={{ flex: '0 1 180px' }}
            description={roleHint(form.values.role, t)}
            {...form.getInputProps('role')}
          />
          <Button type="submit" loading={form.submitting} mt={{ base: 0, xs: 25 }}>
            {t('Send invitation')}
          </Button>
        </Group>
        <FormError message={form.formError} />
      </form>
    </Paper>
  )
}

function MemberTable({ members, manage }: { members: Member[]; manage: boolean }) {
  const { t } = useTranslation()
  if (members.length === 0) return <EmptyState title={t('No members yet')} />
  return (
    <CardTable minWidth={640} verticalSpacing="sm" aria-label={t('Members')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Member')}</Table.Th>
          <Table.Th>{t('Role')}</Table.Th>
          <Table.Th>{t('Actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((m) => (
          <MemberRow key={m.member_id} member={m} manage={manage} />
        ))}
      </Table.Tbody>
    </CardTable>
  )
}

function MemberRow({ member, manage }: { member: Member; manage: boolean }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const setRole = useSetMemberRole()
  const remove = useRemoveMember()
  const leave = useLeaveOrg()
  const refusal = [setRole.error, remove.error, leave.error].find((e): e is ApiError => isError(e, 'last_owner', 'founder_stays'))
  return (
    <Table.Tr data-testid="member-row">
      <Table.Td className={cardCell.lead}>
        <Stack gap={2}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {member.email}
            </Text>
            {member.you ? (
              <Badge variant="light" color="indigo" size="sm">
                {t('You')}
              </Badge>
            ) : null}
            {member.founder ? (
              <Badge variant="light" color="gray" c="dark.7" size="sm">
                {t("Account's own sign-in")}
              </Badge>
            ) : null}
          </Group>
          {member.name ? (
            <Text size="xs" c="dimmed">
              {member.name}
            </Text>
          ) : null}
          {refusal ? (
            <Text size="xs" c="red.8" role="alert">
              {t(refusal.code ?? '')}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td data-label={t('Role')}>
        {manage ? (
          <NativeSelect
            aria-label={t('Role of {{email}}', { email: member.email })}
            data={ROLES.map((r) => ({ value: r, label: roleLabel(r, t) }))}
            value={member.role}
            size="xs"
            w={150}
            disabled={setRole.isPending}
            onChange={(e) => {
              const role = e.currentTarget.value as Role
              if (role !== member.role) setRole.mutate({ memberId: member.member_id, role })
            }}
          />
        ) : (
          <Badge variant="light" color="indigo" c="dark.8">
            {roleLabel(member.role, t)}
          </Badge>
        )}
      </Table.Td>
      <Table.Td className={cardCell.actions}>
        <Group gap="xs">
          {manage && !member.founder && !member.you ? (
            <Button size="xs" variant="light" color="red" loading={remove.isPending} onClick={() => remove.mutate(member.member_id)}>
              {t('Remove')}
            </Button>
          ) : null}
          {member.you && !member.founder ? (
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={leave.isPending}
              onClick={() => leave.mutate(undefined, { onSuccess: () => void navigate(paths.dashboard('nuitrack')) })}
            >
              {t('Leave the organisation')}
            </Button>
          ) : null}
          {!manage && !member.you ? (
            <Text size="xs" c="dimmed">
              —
            </Text>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

function Invitations({ invitations, manage }: { invitations: Invitation[]; manage: boolean }) {
  const { t } = useTranslation()
  const revoke = useRevokeInvitation()
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Title order={2} size="h4" mb="sm">
        {t('Open invitations')}
      </Title>
      <CardTable minWidth={640} verticalSpacing="sm" aria-label={t('Open invitations')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('E-mail')}</Table.Th>
            <Table.Th>{t('Role')}</Table.Th>
            <Table.Th>{t('Expires')}</Table.Th>
            <Table.Th>{t('Actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((i) => (
            <Table.Tr key={i.id} data-testid="invitation-row">
              <Table.Td className={cardCell.lead} style={{ overflowWrap: 'anywhere' }}>
                {i.email}
              </Table.Td>
              <Table.Td data-label={t('Role')}>{roleLabel(i.role, t)}</Table.Td>
              <Table.Td data-label={t('Expires')}>{formatDate(i.expires_at)}</Table.Td>
              <Table.Td className={cardCell.actions}>
                {manage ? (
                  <Button size="xs" variant="light" loading={revoke.isPending && revoke.variables === i.id} onClick={() => revoke.mutate(i.id)}>
                    {t('Withdraw')}
                  </Button>
                ) : (
                  '—'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </CardTable>
    </Paper>
  )
}
