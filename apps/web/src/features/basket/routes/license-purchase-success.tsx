import { useEffect, useState } from 'react'
import { Anchor, Button, Group, Loader, Modal, Stack, Text, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { SUPPORT_SERVICE, isAppReturnPath, type Platform } from '@portal/domain'
import { paths, supportUrl } from '../../../config/paths.ts'
import { usePaypalReturnCapture } from '../../../api/paypal.ts'
import { useRefreshAfterPurchase } from '../api/refresh.ts'
import { basketStore } from '../components/basket-store.ts'
import { clearDraft } from '../components/custom-draft.ts'
import { DRAWER_MS } from '../components/CustomBuilder.tsx'

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
            <Loader size="sm" aria-label={t('Confirming your PayPal payment')} />
            <Text>{t('Confirming your PayPal payment…')}</Text>
          </Group>
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
          <Button onClick={close} data-autofocus disabled={capturing}>
            {t('Go to my licenses')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
