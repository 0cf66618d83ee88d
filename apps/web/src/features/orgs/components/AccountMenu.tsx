import { Badge, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { displayName, type ProfileResponse } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { useOrgs } from '../api/orgs.ts'
import { useSwitchOrg } from '../api/switch-org.ts'
import { roleLabel } from './roles.ts'

/**
 * The header's account menu: who is signed in, the accounts they act in (a switch moves the whole
 * portal to that account), members, account settings and sign-out. The list of accounts is asked
 * for when the menu first opens.
 */
export function AccountMenu({ profile, className }: { profile: ProfileResponse; className?: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [opened, setOpened] = useState(false)
  const [asked, setAsked] = useState(false)
  const orgs = useOrgs(asked)
  const switchOrg = useSwitchOrg()
  const info = profile.client_info
  // in their own account a person goes by their display name (the full name, else the e-mail); in
  // another's organisation, by that organisation's company name, and the person is named in the menu
  const name = (profile.acting_person && info.company.name) || displayName(info)
  return (
    // the wrapper is what the header shrinks on a narrow window (a button there keeps its size)
    <Box className={className}>
      <Menu
        opened={opened}
        onChange={(o) => {
          setOpened(o)
          if (o) setAsked(true)
        }}
        position="bottom-end"
        width={300}
        shadow="md"
        withinPortal
        // a long e-mail is cut short inside its item, never wider than the menu
        styles={{ itemLabel: { minWidth: 0, overflow: 'hidden' } }}
      >
        <Menu.Target>
          <UnstyledButton data-testid="account-menu" aria-label={t('Account menu: {{name}}', { name })} maw="100%" display="block">
            <Group gap={6} wrap="nowrap">
              <Text span c="dark.7" fw={500} truncate title={name} data-testid="display-name" style={{ minWidth: 0 }}>
                {name}
              </Text>
              {profile.acting_person || info.options.corporate_member ? (
                <Badge size="sm" variant="light" color="indigo" c="dark.8" visibleFrom="xs" data-testid="current-role">
                  {roleLabel(profile.role, t)}
                </Badge>
              ) : null}
              <Text span c="dimmed" fz="xs" aria-hidden>
                ▾
              </Text>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown data-testid="account-menu-dropdown">
          <Menu.Label>{t('Signed in as {{email}}', { email: profile.acting_person ?? info.email })}</Menu.Label>
          <Menu.Divider />
          <Menu.Label>{t('Accounts')}</Menu.Label>
          {orgs.isPending ? (
            <Menu.Item disabled>{t('Loading…')}</Menu.Item>
          ) : orgs.isError ? (
            <Menu.Item disabled>{t('The accounts could not be loaded')}</Menu.Item>
          ) : (
            orgs.data.orgs.map((o) => (
              <Menu.Item
                key={o.id}
                data-testid="switch-account"
                aria-current={o.current ? 'true' : undefined}
                rightSection={
                  <Badge size="xs" variant={o.current ? 'filled' : 'light'} color="indigo">
                    {roleLabel(o.role, t)}
                  </Badge>
                }
                onClick={() => {
                  if (o.current) return
                  switchOrg.mutate(o.id, { onSuccess: () => void navigate(paths.dashboard('nuitrack')) })
                }}
              >
                <Text size="sm" fw={o.current ? 700 : 400} truncate>
                  {o.current ? '✓ ' : ''}
                  {o.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {o.corporate ? t('Organisation') : t('Personal account')}
                </Text>
              </Menu.Item>
            ))
          )}
          <Menu.Divider />
          <Menu.Item component={Link} to={paths.members}>
            {t('Members')}
          </Menu.Item>
          <Menu.Item component={Link} to={paths.account}>
            {t('Account')}
          </Menu.Item>
          <Menu.Item component={Link} to={paths.logout}>
            {t('Log out')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Box>
  )
}
