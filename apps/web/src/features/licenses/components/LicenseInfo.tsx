import { useState, type ReactNode } from 'react'
import { Alert, Anchor, Button, Card, CopyButton, Group, Modal, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/use-can.ts'
import { Link, useNavigate } from 'react-router'
import {
  OS_TYPES,
  PLATFORM_TITLES,
  SUPPORT_SERVICE,
  canPause,
  groupKind,
  revokeProblem,
  productTitle,
  showsAsTrial,
  subscriptionPhase,
  termMonths,
  trialDaysLeft,
  type LicenseView,
  type Platform,
} from '@portal/domain'
import { usePauseLicense, useReleaseLicense, useRenameLicense, useResumeLicense } from '../../../api/license-mutations.ts'
import { useGroups } from '../../../api/groups.ts'
import { StatusBadge, expiryLabel, termText } from '../../../components/LicenseBits.tsx'
import { GroupCount } from '../../../components/GroupCount.tsx'
import { EditTitleButton } from '../../../components/EditTitleButton.tsx'
import { paths, supportUrl } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { PauseDialog } from './PauseDialog.tsx'
import { Field, SubscriptionPanel } from './SubscriptionPanel.tsx'
import { AiUpgradePanel, TrialUpgradeButton } from './UpgradePanel.tsx'
import { FaceMachinePlanPanel } from './FaceMachinePlanPanel.tsx'
import { formatDate, formatDayTime } from '../../../lib/format.ts'
import { licenseActionKey, useActionHidden } from '../../../lib/hidden-actions.ts'

/** The license detail screen; the route adds the activation panels of the platform as `children`. */
export function LicenseInfo({ license, platform, children }: { license: LicenseView; platform: Platform; children?: ReactNode }) {
  const canChange = useCan('licenses')
  const { t } = useTranslation()
  const rename = useRenameLicense()
  const pause = usePauseLicense()
  const resumeMutation = useResumeLicense()
  const release = useReleaseLicense()
  const navigate = useNavigate()
  const onHold = license.status === 2
  const group = useGroups().data?.groups.find((g) => g.id === license.group_id)
  const [confirmRevoke, setConfirmRevoke] = useState(false)
  const [confirmPause, setConfirmPause] = useState(false)
  const [busy, setBusy] = useState(false)
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await fn()
    } catch {
      // the error modal has told the user
    } finally {
      setBusy(false)
    }
  }
  const activated = !!license.activation_date || license.activations.length > 0
  const revocable = revokeProblem({ ...license, has_devices: license.activations.length > 0 }) === null
  // a cloud subscription (Face Machine, Analytics) is managed here: pause, or the note that it ended
  const cloud = canPause(license.config.product)
  const days = trialDaysLeft(license.expire_date, new Date())
  const paused = license.state === 'paused'
  const phase = subscriptionPhase(license)
  // a paid license never reads as a trial, whatever its config says
  const trial = showsAsTrial(license)
  const months = license.lifetime ? termMonths({ product: license.config.product, config: license.config }) : null
  // a stopped or ended cloud subscription comes back through its notice in the subscription block
  const pauseHidden = useActionHidden(licenseActionKey(license.id, 'pause'))
  const resumeHidden = useActionHidden(licenseActionKey(license.id, 'resume'))
  const revokeHidden = useActionHidden(licenseActionKey(license.id, 'revoke'))
  const pausable = !pauseHidden && cloud && !paused && license.subscription_status !== 'cancelled' && phase !== 'stopped' && phase !== 'cancelled'
  const resume = (
    <Button
      onClick={() =>
        act(async () => {
          await resumeMutation.mutateAsync(license.id)
          // as cancel and reactivate do: the change is said, not only drawn
          notifySuccess(trial ? t('Trial resumed') : t('Subscription resumed'), t('{{title}} is active again.', { title: license.title }))
        })
      }
      loading={busy}
      disabled={onHold}
    >
      {trial ? t('Resume the trial') : t('Resume the subscription')}
    </Button>
  )
  // the Manage card only when it has something to offer or say
  // pausing and revoking change the license: a role that may not sees no Manage card
  const manageable = canChange && (pausable || (cloud && (phase === 'cancelled' || phase === 'stopped')) || revocable || (!cloud && activated))
  const supportLink = {
    support: <Anchor href={supportUrl(SUPPORT_SERVICE[platform], license.id)} target="_blank" rel="noopener noreferrer" inherit />,
    hidden: <VisuallyHidden />,
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Anchor component={Link} to={paths.dashboard(platform)} size="sm">
            ← {PLATFORM_TITLES[platform]}
          </Anchor>
        </Group>
        {/* section 2: support about this license, signed in to the helpdesk, in a new tab */}
        <Anchor href={supportUrl(SUPPORT_SERVICE[platform], license.id)} target="_blank" rel="noopener noreferrer" size="sm" data-testid="license-support">
          {t('Get support for this license')}
          <VisuallyHidden> {t('(opens in a new tab)')}</VisuallyHidden>
        </Anchor>
      </Group>
      <Group gap="sm" align="center" wrap="wrap">
        {/* a title may be 256 characters without a space: it wraps anywhere rather than overflow */}
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {license.title}
        </Title>
        <StatusBadge status={license.state} />
        <EditTitleButton
          current={license.title}
          button="Edit title"
          dialogTitle="Edit the title"
          fieldLabel="Title"
          disabled={onHold}
          onSave={(title) => rename.mutateAsync({ id: license.id, title })}
        />
      </Group>
      {license.suspended_reason ? (
        <Alert color="red" title={t('Suspended')} data-testid="suspended-banner">
          {t('license.suspended_because', { reason: license.suspended_reason })}
        </Alert>
      ) : null}
      {onHold && (
        // orange's own title shade is too pale on its tint (contrast): the title takes the text colour
        <Alert color="orange" title={t('On hold')} styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}>
          {license.held_until
            ? t('The license is being upgraded and is on hold until {{time}} (about 15 minutes, up to 30). Every action is disabled until then.', {
                time: formatDayTime(license.held_until),
              })
            : t('The license is being upgraded and is on hold for about 15 minutes (up to 30). Every action is disabled until then.')}
        </Alert>
      )}
      {paused && (
        // yellow's own title shade is too pale on its tint (contrast): the title takes the text colour
        <Alert color="yellow" title={t('Paused')} data-testid="paused-banner" styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {license.data_erased_at || license.data_erase_date
                ? t(
                    trial
                      ? 'This trial is paused: {{service}} runs no transactions for it.'
                      : 'This subscription is paused: {{service}} runs no transactions for it.',
                    {
                      service: PLATFORM_TITLES[platform],
                    },
                  )
                : t(
                    trial
                      ? 'This trial is paused: {{service}} runs no transactions for it. Its data is erased 30 days after pausing unless you resume it.'
                      : 'This subscription is paused: {{service}} runs no transactions for it. Its data is erased 30 days after pausing unless you resume it.',
                    { service: PLATFORM_TITLES[platform] },
                  )}
            </Text>
            {license.data_erased_at ? (
              <Text size="sm" fw={600} data-testid="erase-note">
                {t('Its data was erased on {{date}}.', { date: formatDate(license.data_erased_at) })}
              </Text>
            ) : (
              license.data_erase_date && (
                <Text size="sm" fw={600} data-testid="erase-note">
                  {t('Its data will be erased on {{date}} unless you resume it.', { date: formatDate(license.data_erase_date) })}
                </Text>
              )
            )}
            <Group gap="sm">
              {!resumeHidden && resume}
              <TrialUpgradeButton license={license} platform={platform} onHold={onHold} />
            </Group>
          </Stack>
        </Alert>
      )}
      {trial && !paused && (
        <Alert color={days !== null && days <= 0 ? 'red' : 'blue'} title={t('Trial')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {days === null
                ? t('This trial has no end date.')
                : days > 0
                  ? days === 1
                    ? t('1 day left in the trial.')
                    : t('{{n}} days left in the trial.', { n: days })
                  : days === -1
                    ? t('The trial ended 1 day ago.')
                    : t('The trial ended {{n}} days ago.', { n: -days })}
            </Text>
            <TrialUpgradeButton license={license} platform={platform} onHold={onHold} />
          </Stack>
        </Alert>
      )}
      <Card withBorder padding="lg" component="section" aria-labelledby="details-title">
        <Title order={2} size="h4" mb="md" id="details-title">
          {t('Details')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Field label={t('Product')}>{productTitle(license.config.product)}</Field>
          <Field label={t('Activation key')}>
            <Group gap={4} wrap="nowrap">
              <Text ff="monospace" data-testid="license-key">
                {license.token}
              </Text>
              <CopyButton value={license.token}>
                {({ copied, copy }) => (
                  <Button variant="subtle" size="compact-xs" onClick={copy} aria-label={t('Copy the activation key')}>
                    {copied ? t('Copied') : t('Copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Field>
          <Field label={t('Group')}>
            {license.group_id && group && groupKind(group) === 'key' ? (
              <Anchor component={Link} to={paths.groupKeyInfo(license.group_id)}>
                {license.group}
              </Anchor>
            ) : (
              (license.group ?? '—')
            )}
          </Field>
          {license.config.os_type !== null && license.config.os_type !== undefined && (
            <Field label={t('Operating system')}>{OS_TYPES[license.config.os_type as 0 | 1 | 2]}</Field>
          )}
          <Field label={t('Created')}>{formatDate(license.created_date)}</Field>
          <Field label={t('Activated')}>{formatDate(license.activation_date)}</Field>
          <Field
            label={t('Expires')}
          >{`${expiryLabel(license, t)}${license.expire_date && license.dates.days !== null && license.dates.days > 0 ? ` ${t('(in {{n}} days)', { n: license.dates.days })}` : ''}`}</Field>
          {months && (
            <Field label={t('Term')}>
              <span data-testid="license-term">{termText(months, t)}</span>
            </Field>
          )}
          {/* a renewing license has its own block below; a trial says here what it is */}
          {license.subscription_status && phase === null && (
            <Field label={t('Subscription')}>
              {paused
                ? t('Paused')
                : license.subscription_status === 'none'
                  ? t('Trial')
                  : license.subscription_status[0]!.toUpperCase() + license.subscription_status.slice(1)}
            </Field>
          )}
          {/* a renewing license shows its next payment in the subscription block */}
          {license.next_payment && phase === null && license.subscription_status === 'active' && (
            <Field label={t('Next payment')}>{formatDate(license.next_payment)}</Field>
          )}
          {license.serial_sensor && <Field label={t('Serial / sensor')}>{license.serial_sensor}</Field>}
          {license.config.max_version && <Field label={t('Up to SDK version')}>{license.config.max_version}</Field>}
        </SimpleGrid>
      </Card>
      <SubscriptionPanel license={license} platform={platform} />
      <AiUpgradePanel license={license} platform={platform} onHold={onHold} />
      {platform === 'face-machine' && <FaceMachinePlanPanel license={license} />}
      {group && groupKind(group) === 'key' && <GroupCount group={group} disabled={onHold} />}
      {children}
      {manageable && (
        <Card withBorder padding="lg" component="section" aria-labelledby="manage-title">
          <Title order={2} size="h4" mb="md" id="manage-title">
            {t('Manage')}
          </Title>
          <Group>
            {/* a paused subscription resumes from its banner above */}
            {pausable && (
              <Button variant="light" onClick={() => setConfirmPause(true)} disabled={onHold}>
                {trial ? t('Pause the trial') : t('Pause the subscription')}
              </Button>
            )}
            {cloud && (phase === 'cancelled' || phase === 'stopped') && (
              <Text size="sm">
                <Trans
                  defaults="Questions about renewing? <support>Contact support<hidden> (opens in a new tab)</hidden></support>."
                  components={supportLink}
                />
              </Text>
            )}
            {revokeHidden ? null : revocable ? (
              <Button color="red" variant="light" onClick={() => setConfirmRevoke(true)} disabled={onHold}>
                {t('Revoke the license')}
              </Button>
            ) : (
              !cloud &&
              activated && (
                <Text size="sm" c="dimmed">
                  {t('An activated license stays bound; release a device in the Devices section above to move it.')}
                </Text>
              )
            )}
          </Group>
        </Card>
      )}
      <PauseDialog
        opened={confirmPause}
        service={PLATFORM_TITLES[platform]}
        trial={trial}
        endsOn={license.expire_date ? formatDate(license.expire_date) : null}
        busy={busy}
        onCancel={() => setConfirmPause(false)}
        onConfirm={() =>
          act(async () => {
            try {
              await pause.mutateAsync(license.id)
              notifySuccess(
                trial ? t('Trial paused') : t('Subscription paused'),
                t('{{title}} is paused. Resume it within 30 days to keep its data.', { title: license.title }),
              )
            } finally {
              setConfirmPause(false)
            }
          })
        }
      />
      <Modal opened={confirmRevoke} onClose={() => setConfirmRevoke(false)} title={t('Revoke this license?')} centered>
        <Text mb="lg">
          {t('The key {{token}} stops existing and its place returns to the group {{group}}, where you can generate a new key.', {
            token: license.token,
            group: license.group,
          })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmRevoke(false)}>
            {t('Cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() =>
              act(async () => {
                await release.mutateAsync(license.id)
                setConfirmRevoke(false)
                notifySuccess(
                  t('License revoked'),
                  t('{{title}} no longer works; its place is back in {{group}}.', { title: license.title, group: license.group ?? t('its group') }),
                )
                navigate(paths.dashboard(platform))
              })
            }
          >
            {t('Revoke')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  )
}
