import { useEffect, useState } from 'react'
import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { ERRORS, isCloudSubscription, isError, paymentMethodText, type LicenseView, type PaymentSource, type Platform } from '@portal/domain'
import { formatUsd } from '../../../lib/format.ts'
import { useActivateWorkspace, useReactivateSubscription } from '../../../api/license-mutations.ts'
import { REACTIVATE_HANDLED } from '../../../api/reactivate-subscription.ts'
import { paths } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { leave } from '../../../lib/leave.ts'
import { notifySuccess } from '../../../lib/notify.ts'

/**
 * Renewing and paying for a subscription (section 4). `renew` is the activation dialog of a cancelled
 * subscription: a cloud one asks its workspace back first (activate-workspace), and only when that
 * answers license_status offers reactivation, a new period paid now; any other goes to
 * reactivation at once. `pay` is the Pay now of a failed renewal and the resume of a stopped one:
 * reactivation straight away. A wallet (PayPal vault) subscription cannot be reactivated here, and PayPal is
 * no choice (the server refuses a PayPal reactivation: wallet_renewal_unavailable).
 */
export type RenewMode = 'renew' | 'pay'
type Choice = 'own' | PaymentSource

export function RenewDialog({
  opened,
  mode,
  license,
  platform,
  onClose,
}: {
  opened: boolean
  mode: RenewMode
  license: LicenseView
  platform: Platform
  onClose: () => void
}) {
  const { t } = useTranslation()
  const activate = useActivateWorkspace()
  const reactivate = useReactivateSubscription()
  const cloud = isCloudSubscription(license)
  // a cloud renewal asks for the workspace first; the rest reactivate (and pay) at once
  const [step, setStep] = useState<'confirm' | 'reactivate'>(mode === 'renew' && cloud ? 'confirm' : 'reactivate')
  const [choice, setChoice] = useState<Choice>('own')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    if (opened) {
      setStep(mode === 'renew' && cloud ? 'confirm' : 'reactivate')
      setChoice('own')
      setProblem(null)
    }
  }, [opened, mode, cloud])

  const wallet = license.subscription?.wallet === true
  // section 8: a wallet (PayPal vault) subscription is not renewed from the portal, whatever pays
  const walletBlocked = wallet
  const own = paymentMethodText(license)
  const price = license.subscription?.renewal_price ?? license.price
  const info = paths.licenseInfo(platform, license.id)

  const renewWorkspace = async () => {
    setBusy(true)
    setProblem(null)
    try {
      await activate.mutateAsync({ platform, id: license.id })
      notifySuccess(t('Subscription renewed'), t('{{title}} is active again.', { title: license.title }))
      onClose()
    } catch (err) {
      if (isError(err, 'license_status')) setStep('reactivate')
      // any other failure: the error modal has told the user
    } finally {
      setBusy(false)
    }
  }

  const pay = async () => {
    setBusy(true)
    setProblem(null)
    try {
      const answer = await reactivate.mutateAsync({
        id: license.id,
        body: {
          ...(choice === 'own' ? {} : { payment_source: choice }),
          success_url: paths.licensePurchaseSuccess(platform, info),
          cancel_url: info,
        },
      })
      if (answer.status === 'pending' && answer.payment) {
        leave.to(answer.payment.provider_data.url)
        return
      }
      notifySuccess(t('Subscription reactivated'), t('{{title}} is active again.', { title: license.title }))
      onClose()
    } catch (err) {
      const named = REACTIVATE_HANDLED.find((name) => isError(err, name))
      if (named && err instanceof ApiError && !err.shown) setProblem(t(ERRORS[named].code))
    } finally {
      setBusy(false)
    }
  }

  const title = mode === 'pay' ? t('Pay for the subscription') : step === 'confirm' ? t('Renew the subscription?') : t('Reactivate the subscription')
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {step === 'confirm' ? (
        <Stack gap="md">
          <Text>{t('{{title}} is renewed and its workspace runs again.', { title: license.title })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('Not now')}
            </Button>
            <Button onClick={renewWorkspace} loading={busy}>
              {t('Renew')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          {mode === 'renew' && cloud && <Text>{t('This subscription cannot be resumed as it is. Reactivate it: a new period is paid for now.')}</Text>}
          {mode === 'renew' && !cloud && <Text>{t('Renewing reactivates the subscription: a new period is paid for now.')}</Text>}
          {price !== null && price !== undefined && <Text>{t('Amount: {{amount}}', { amount: formatUsd(price) })}</Text>}
          {walletBlocked ? (
            <Alert color="orange" title={t('Renewal unavailable')} styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}>
              {t(ERRORS.wallet_renewal_unavailable.code)}
            </Alert>
          ) : (
            <Radio.Group label={t('Pay with')} value={choice} onChange={(v) => setChoice(v as Choice)}>
              <Stack gap={6} mt={6}>
                <Radio value="own" label={own ? t('The subscription’s own: {{method}}', { method: own }) : t('The subscription’s own payment method')} />
                <Radio value="stripe" label={t('Card')} />
                <Radio value="balance" label={t('Balance')} />
              </Stack>
            </Radio.Group>
          )}
          {problem && (
            <Text c="red.9" role="alert">
              {problem}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('Not now')}
            </Button>
            <Button onClick={pay} loading={busy} disabled={walletBlocked}>
              {mode === 'pay' ? t('Pay now') : t('Reactivate')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
