import { Anchor, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { isAppReturnPath, isPlatform } from '@portal/domain'
import { formatUsd } from '../../../lib/format.ts'
import { paths, supportUrl } from '../../../config/paths.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { usePaypalReturnCapture } from '../../../api/paypal.ts'
import { useRefreshBalance } from '../api/refresh-balance.ts'
import { useTopUpStatus } from '../api/top-up-status.ts'

/**
 * /app/{platform}/balance-purchase-success/?next=: where a top-up's checkout returns. The provider
 * confirms the payment on its own schedule, so the modal says the balance follows soon; closing it
 * reads the balance again and goes on to ?next (a portal page only) or the dashboard.
 */
export function BalancePurchaseSuccessRoute() {
  const { t } = useTranslation()
  const { platform } = useParams()
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const refreshBalance = useRefreshBalance()
  // PayPal comes back with its order: capture it before the top-up can be confirmed
  const { capturing } = usePaypalReturnCapture()
  const { status, balanceRead } = useTopUpStatus()
  const balance = useProfile().data?.client_info.balance
  const next = search.get('next')
  const target = next && isAppReturnPath(next) ? next : paths.dashboard(isPlatform(platform) ? platform : 'nuitrack')

  const close = () => {
    void refreshBalance()
    navigate(target, { replace: true })
  }

  return (
    <Modal opened onClose={close} title={t('Thank you for your payment')} centered>
      <Stack>
        <Text>{t('Your balance will be topped up soon. Confirming the payment may take some time.')}</Text>
        <div role="status" aria-live="polite" data-testid="top-up-status">
          {capturing && (
            <Group gap="xs" wrap="nowrap">
              <Loader size="xs" />
              <Text size="sm">{t('Confirming your PayPal payment…')}</Text>
            </Group>
          )}
          {!capturing && status === 'pending' && (
            <Group gap="xs" wrap="nowrap">
              <Loader size="xs" />
              <Text size="sm">{t('Waiting for the payment system to confirm the payment…')}</Text>
            </Group>
          )}
          {status === 'ok' && balanceRead && balance !== undefined && (
            <Text size="sm" fw={600} c="teal.9">
              {t('The payment is confirmed. Your balance is {{amount}}.', { amount: formatUsd(balance) })}
            </Text>
          )}
          {status === 'declined' && (
            <Text size="sm" fw={600} c="var(--mantine-color-error)">
              {t('The payment system declined the payment.')}
            </Text>
          )}
        </div>
        <Text size="sm" c="dimmed">
          <Trans
            defaults="If the balance does not change within an hour, please <support>contact support</support>."
            components={{ support: <Anchor href={supportUrl('freshdesk')} target="_blank" rel="noopener noreferrer" inherit underline="always" /> }}
          />
        </Text>
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            {t('OK')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
