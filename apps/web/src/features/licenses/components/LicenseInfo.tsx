import { useState, type ReactNode } from 'react'
import { Alert, Anchor, Button, Card, CopyButton, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from 'react-router'
import {
  OS_TYPES,
  PLATFORM_TITLES,
  productTitle,
  trialDaysLeft,
  type LicenseView,
  type Platform,
} from '@portal/domain'
import { licensesQueryOptions, pauseLicense, releaseLicense, renameLicense, resumeLicense } from '../../../api/licenses.ts'
import { groupsQueryOptions, useGroups } from '../../../api/groups.ts'
import { StatusBadge, formatDate } from '../../../components/LicenseBits.tsx'
import { GroupCount } from '../../../components/GroupCount.tsx'
import { EditTitleButton } from '../../../components/EditTitleButton.tsx'
import { paths } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'

/** The license detail screen; the route adds the activation panels of the platform as `children`. */
export function LicenseInfo({ license, platform, children }: { license: LicenseView; platform: Platform; children?: ReactNode }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const onHold = license.status === 2
  const group = useGroups().data?.groups.find((g) => g.id === license.group_id)
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: licensesQueryOptions().queryKey }), qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey })])
  const [confirmRevoke, setConfirmRevoke] = useState(false)
  const [busy, setBusy] = useState(false)
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await fn()
      await refresh()
    } catch {
      // the error modal has told the user
    } finally {
      setBusy(false)
    }
  }
  const revocable = license.group_id !== null && !license.activation_date && license.activations.length === 0
  const cloud = platform === 'face-machine' || platform === 'nuitrack-analytics'
  const days = trialDaysLeft(license.expire_date, new Date())

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Anchor component={Link} to={paths.dashboard(platform)} size="sm">
            ← {PLATFORM_TITLES[platform]}
          </Anchor>
        </Group>
      </Group>
      <Group gap="sm" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {license.title}
        </Title>
        <StatusBadge status={license.license_status} />
        <EditTitleButton
          current={license.title}
          button="Edit title"
          dialogTitle="Edit the title"
          fieldLabel="Title"
          disabled={onHold}
          onSave={async (title) => {
            await renameLicense(license.id, title)
            await refresh()
          }}
        />
      </Group>
      {onHold && (
        <Alert color="orange" title="On hold">
          The license is being upgraded and is on hold for about 15 minutes (up to 30). Every action is disabled until then.
        </Alert>
      )}
      {license.is_trial && (
        <Alert color={days !== null && days <= 0 ? 'red' : 'blue'} title="Trial">
          {days === null ? 'This trial has no end date.' : days > 0 ? `${days} day${days === 1 ? '' : 's'} left in the trial.` : `The trial ended ${-days} day${days === -1 ? '' : 's'} ago.`}
        </Alert>
      )}
      <Card withBorder padding="lg" component="section" aria-labelledby="details-title">
        <Title order={2} size="h4" mb="md" id="details-title">
          Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Field label="Product">{productTitle(license.config.product)}</Field>
          <Field label="Activation key">
            <Group gap={4} wrap="nowrap">
              <Text ff="monospace" data-testid="license-key">
                {license.token}
              </Text>
              <CopyButton value={license.token}>
                {({ copied, copy }) => (
                  <Button variant="subtle" size="compact-xs" onClick={copy} aria-label="Copy the activation key">
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Field>
          <Field label="Group">
            {license.group_id && group && !group.is_default ? (
              <Anchor component={Link} to={paths.groupKeyInfo(license.group_id)}>
                {license.group}
              </Anchor>
            ) : (
              (license.group ?? '—')
            )}
          </Field>
          {license.config.os_type !== null && license.config.os_type !== undefined && <Field label="Operating system">{OS_TYPES[license.config.os_type as 0 | 1 | 2]}</Field>}
          <Field label="Created">{formatDate(license.created_date)}</Field>
          <Field label="Activated">{formatDate(license.activation_date)}</Field>
          <Field label="Expires">{license.expire_date ? `${formatDate(license.expire_date)}${license.dates.days !== null && license.dates.days > 0 ? ` (in ${license.dates.days} days)` : ''}` : 'Never'}</Field>
          {license.lifetime && <Field label="Term">{license.lifetime === 'year' ? 'Annual' : 'Monthly'}</Field>}
          {license.subscription_status && <Field label="Subscription">{license.subscription_status === 'none' ? 'Trial' : license.subscription_status}</Field>}
          {license.next_payment && <Field label="Next payment">{formatDate(license.next_payment)}</Field>}
          {license.serial_sensor && <Field label="Serial / sensor">{license.serial_sensor}</Field>}
          {license.config.max_version && <Field label="Up to SDK version">{license.config.max_version}</Field>}
        </SimpleGrid>
      </Card>
      {group && !group.is_default && <GroupCount group={group} disabled={onHold} onSaved={refresh} />}
      {children}
      <Card withBorder padding="lg" component="section" aria-labelledby="manage-title">
        <Title order={2} size="h4" mb="md" id="manage-title">
          Manage
        </Title>
        <Group>
          {cloud && license.subscription_status !== 'cancelled' && (
            license.config.paused ? (
              <Button onClick={() => act(() => resumeLicense(license.id))} loading={busy} disabled={onHold}>
                Resume the subscription
              </Button>
            ) : (
              <Button variant="light" onClick={() => act(() => pauseLicense(license.id))} loading={busy} disabled={onHold}>
                Pause the subscription
              </Button>
            )
          )}
          {cloud && license.subscription_status === 'cancelled' && <Text c="red">The license has expired. Renew it from the basket once purchases open.</Text>}
          {revocable ? (
            <Button color="red" variant="light" onClick={() => setConfirmRevoke(true)} disabled={onHold}>
              Revoke the license
            </Button>
          ) : (
            !cloud && <Text size="sm" c="dimmed">An activated license stays bound; release its devices below to move it.</Text>
          )}
        </Group>
        {cloud && license.config.paused && (
          <Text size="sm" c="dimmed" mt="sm">
            While paused, no transactions run. Data is erased 30 days after deactivation unless you resume.
          </Text>
        )}
      </Card>
      <Modal opened={confirmRevoke} onClose={() => setConfirmRevoke(false)} title="Revoke this license?" centered>
        <Text mb="lg">The key {license.token} stops existing and its place returns to the group {license.group}, where you can generate a new key.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmRevoke(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() =>
              act(async () => {
                await releaseLicense(license.id)
                setConfirmRevoke(false)
                notifySuccess('License revoked', `${license.title} no longer works; its place is back in ${license.group ?? 'its group'}.`)
                navigate(paths.dashboard(platform))
              })
            }
          >
            Revoke
          </Button>
        </Group>
      </Modal>
    </Stack>
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  )
}
