import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { isAppReturnPath, isPlatform } from '@portal/domain'
import { paths, supportUrl } from '../../../config/paths.ts'
import { useRefreshBalance } from '../api/refresh-balance.ts'

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
        <Text size="sm" c="dimmed">
          <Trans
            defaults="If the balance does not change within an hour, please <support>contact support</support>."
            components={{ support: <Anchor href={supportUrl('freshdesk')} target="_blank" rel="noopener noreferrer" inherit /> }}
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
