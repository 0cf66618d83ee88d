import { useEffect, useState } from 'react'
import { Anchor, Box, Button, CopyButton, Group, Modal, Stack, Text, VisuallyHidden } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { SUPPORT_SERVICE, UNACTIVATED_LICENSE_LIMIT, groupKind, isAppReturnPath, planGenerateAll, type LicenseView, type Platform } from '@portal/domain'
import { groupsQueryOptions } from '../../../api/groups.ts'
import { useGenerateAll } from '../../../api/group-mutations.ts'
import { paths, supportUrl } from '../../../config/paths.ts'
import { usePaypalReturnCapture } from '../../../api/paypal.ts'
import { useRefreshAfterPurchase } from '../api/refresh.ts'
import { basketStore } from '../components/basket-store.ts'
import { clearDraft } from '../components/custom-draft.ts'
import { useCan } from '../../../lib/use-can.ts'
import { DRAWER_MS } from '../components/CustomBuilder.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

/**
 * /app/{platform}/license-purchase-success/: the order is paid (from the balance, or the provider
 * sent the customer back); the licenses arrive with the fulfilment. Closing refetches groups and
 * licenses and goes to ?next (an /app/ path only) or the dashboard.
 */
export function LicensePurchaseSuccessRoute() {
  const { t } = useTranslation()
  const platform = useParams().platform as Platform
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const refresh = useRefreshAfterPurchase()
  const [opened, setOpened] = useState(true)
  const next = search.get('next')
  const target = next && isAppReturnPath(next) ? next : paths.dashboard(platform)

  const { capturing } = usePaypalReturnCapture()
  const generate = useGenerateAll()
  // a billing member buys, and the licenses' managers make the keys
  const canGenerate = useCan('licenses')
  const [made, setMade] = useState<LicenseView[] | null>(null)
  // the platform's slots waiting to be generated (group keys are handed out otherwise), read again
  // until the purchase's licenses have arrived
  const [arrived, setArrived] = useState(false)
  const groups = useQuery({ ...groupsQueryOptions(), refetchInterval: arrived || made ? false : 2000 })
  const waiting = (groups.data?.groups ?? [])
    .filter((g) => g.type === platform && groupKind(g) !== 'key')
    .map((g) => ({ id: g.id, free: g.limit - g.holded_limit }))
    .filter((g) => g.free > 0)
  const plan = planGenerateAll(waiting, groups.data?.unactivated_licenses ?? 0)
  const offered = plan.reduce((n, p) => n + p.count, 0)
  const waitingTotal = waiting.reduce((n, g) => n + g.free, 0)
  useEffect(() => {
    if (waitingTotal > 0) setArrived(true)
  }, [waitingTotal])
  const generateAll = async () => {
    try {
      setMade(await generate.mutateAsync(plan.map((p) => ({ id: p.group.id, count: p.count }))))
    } catch {
      // the error modal has said why; what was made before the refusal is on the dashboard
    }
  }

  // the purchase is done: the basket and the builder's draft start over
  useEffect(() => {
    basketStore.clear(platform)
    if (platform === 'face') clearDraft()
  }, [platform])

  const close = () => {
    void refresh()
    setOpened(false)
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      onExitTransitionEnd={() => void navigate(target, { replace: true })}
      transitionProps={{ duration: DRAWER_MS }}
      title={t('Thank you for your purchase')}
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack gap="sm">
        {capturing ? (
          <Group gap="sm">
            <Spinner label={t('Confirming your PayPal payment')} size="sm" />
            <Text>{t('Confirming your PayPal payment…')}</Text>
          </Group>
        ) : made ? (
          <GeneratedKeys licenses={made} />
        ) : offered > 0 && !canGenerate ? (
          <Text>{t('Your licenses are here. An owner or a developer of the account generates their activation keys from the dashboard.')}</Text>
        ) : offered > 0 ? (
          <Stack gap="xs">
            <Text>{t('Your licenses are here. Generate their activation keys now, or later from the dashboard.')}</Text>
            <Button onClick={() => void generateAll()} loading={generate.isPending} data-autofocus>
              {offered === 1 ? t('Generate the key now') : t('Generate all {{count}} keys now', { count: offered })}
            </Button>
            <Text size="sm" c="dimmed">
              {t('Each key gets a default title that you can change later on its license page.')}
              {offered < waitingTotal
                ? ` ${t('At most {{max}} licenses can wait unactivated: generate the other {{rest}} after activating these.', { max: UNACTIVATED_LICENSE_LIMIT, rest: waitingTotal - offered })}`
                : ''}
            </Text>
          </Stack>
        ) : (
          <Text>{t('Your licenses will be added soon. This may take some time.')}</Text>
        )}
        <Text size="sm" c="dimmed">
          {t('Not there after a while?')}{' '}
          <Anchor href={supportUrl(SUPPORT_SERVICE[platform])} target="_blank" rel="noopener noreferrer" underline="always">
            {t('Contact support')}
            <VisuallyHidden> {t('(opens in a new tab)')}</VisuallyHidden>
          </Anchor>
        </Text>
        <Group justify="flex-end">
          <Button
            onClick={close}
            data-autofocus={offered === 0 || made !== null ? true : undefined}
            variant={offered > 0 && !made ? 'default' : 'filled'}
            disabled={capturing || generate.isPending}
          >
            {t('Go to my licenses')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** The keys just generated: each license's title and key, with a copy button. */
function GeneratedKeys({ licenses }: { licenses: LicenseView[] }) {
  const { t } = useTranslation()
  return (
    <Stack gap={4}>
      <Text fw={600}>{t('Your new keys')}</Text>
      <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('Your new keys')}>
        {licenses.map((l) => (
          <Box component="li" key={l.id} py={4} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="new-key">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Box style={{ minWidth: 0 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {l.title}
                </Text>
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {l.token}
                </Text>
              </Box>
              <CopyButton value={l.token}>
                {({ copied, copy }) => (
                  <Button variant="subtle" size="compact-xs" onClick={copy} aria-label={t('Copy the key of {{title}}', { title: l.title })}>
                    {copied ? t('Copied') : t('Copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Box>
        ))}
      </Box>
      <Text size="sm" c="dimmed">
        {t('Titles can be changed on each license’s page.')}
      </Text>
    </Stack>
  )
}
