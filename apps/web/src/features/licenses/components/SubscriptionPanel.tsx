import { useState, type ReactNode } from 'react'
import { Alert, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/use-can.ts'
import { Link } from 'react-router'
import { expiryText, paymentMethodText, subscriptionPhase, type LicenseView, type Platform, type SubscriptionPhase } from '@portal/domain'
import { formatDate, formatUsd } from '../../../lib/format.ts'
import { useCancelSubscription, useReactivateSubscription } from '../../../api/license-mutations.ts'
import { pricePerTermText } from '../../../components/LicenseBits.tsx'
import { paths } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { RenewDialog, type RenewMode } from './RenewDialog.tsx'

const PHASE_LABELS: Record<SubscriptionPhase, string> = {
  active: 'Active',
  cancel_pending: 'Not renewing',
  past_due: 'Payment failed',
  awaiting_authentication: 'Payment to confirm',
  paused: 'Paused',
  taken_back: 'Suspended',
  stopped: 'Stopped',
  cancelled: 'Cancelled',
  on_hold: 'On hold',
}

// yellow and orange title shades are too pale on their tint (contrast): titles take the text colour
const readableTitle = { title: { color: 'var(--mantine-color-dark-8)' } }

/**
 * The subscription block of every info screen (section 4): its status, the next payment (only while
 * active), the renewal price and how it is paid; and the one action its state allows: cancel, undo a
 * cancellation, pay a failed renewal, resume a stopped one, renew a cancelled one. On hold: none.
 */
export function SubscriptionPanel({ license, platform }: { license: LicenseView; platform: Platform }) {
  const { t } = useTranslation()
  const phase = subscriptionPhase(license)
  // renewing, paying and cancelling move the account's money: offered to a role that may
  const pay = useCan('money')
  const cancel = useCancelSubscription()
  const undo = useReactivateSubscription()
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [renew, setRenew] = useState<RenewMode | null>(null)
  const [busy, setBusy] = useState(false)
  if (phase === null) return null

  const sub = license.subscription
  const onHold = phase === 'on_hold'
  const periodEnd = license.expire_date ?? license.next_payment ?? sub?.next_attempt ?? null
  const price = sub?.renewal_price ?? license.price
  // the renewal price is per term: a 3-month term's price is for 3 months
  const months = (() => {
    const e = expiryText({ ...license, expire_date: null, next_payment: null, is_subscription: true })
    return e.kind === 'renews' ? e.months : 1
  })()
  const method = paymentMethodText(license)
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

  const undoCancel = () =>
    act(async () => {
      const info = paths.licenseInfo(platform, license.id)
      await undo.mutateAsync({ id: license.id, body: { success_url: paths.licensePurchaseSuccess(platform, info), cancel_url: info } })
      notifySuccess(t('Subscription reactivated'), t('{{title}} renews again.', { title: license.title }))
    })

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="subscription-title">
      <Title order={2} size="h4" mb="md" id="subscription-title">
        {t('Subscription')}
      </Title>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Field label={t('Status')}>
            <span data-testid="subscription-status">{t(PHASE_LABELS[phase])}</span>
          </Field>
          {phase === 'active' && license.next_payment && <Field label={t('Next payment')}>{formatDate(license.next_payment)}</Field>}
          {price !== null && price !== undefined && (
            <Field label={t('Renewal price')}>
              <span data-testid="renewal-price">{pricePerTermText(formatUsd(price), months, t)}</span>
            </Field>
          )}
          {method && (
            <Field label={t('Paid with')}>
              <span data-testid="payment-method">{method === 'Balance' ? t('Balance') : method}</span>
            </Field>
          )}
        </SimpleGrid>

        {phase === 'cancel_pending' && (
          <Alert color="yellow" title={t('Cancelled — active until {{date}}', { date: formatDate(periodEnd) })} styles={readableTitle}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('It does not renew and ends then. Changed your mind? Reactivate it: nothing is charged before the period ends.')}</Text>
              {pay && (
                <Button onClick={undoCancel} loading={busy}>
                  {t('Reactivate')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {phase === 'past_due' && (
          <Alert color="red" title={t('Payment failed')} data-testid="past-due">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">
                {sub?.next_attempt
                  ? t('The renewal payment failed on {{failed}}. We will try again on {{next}}.', {
                      failed: formatDate(license.expire_date),
                      next: formatDate(sub.next_attempt),
                    })
                  : t('The renewal payment failed on {{failed}}.', { failed: formatDate(license.expire_date) })}
              </Text>
              {pay && (
                <Button color="red" onClick={() => setRenew('pay')}>
                  {t('Pay now')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {phase === 'awaiting_authentication' && (
          <Alert color="yellow" title={t('Confirm the renewal payment')} data-testid="awaiting-authentication" styles={readableTitle}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">
                {t('Your bank asks you to confirm the renewal payment. The license keeps working until {{date}}; pay by then to keep it.', {
                  date: formatDate(sub?.next_attempt ?? null),
                })}
              </Text>
              {pay && (
                <Button component={Link} to={paths.renewalPayment(platform, license.id)}>
                  {t('Confirm the payment')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {phase === 'taken_back' && (
          <Text size="sm" data-testid="subscription-taken-back">
            {t('Its payment was taken back, so it does not renew. Contact us if you think this is a mistake.')}
          </Text>
        )}
        {phase === 'stopped' && (
          <Alert color="red" title={t('Subscription stopped')}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('The renewal payments failed, so the subscription has stopped. Resume it by paying for a new period now.')}</Text>
              {pay && <Button onClick={() => setRenew('pay')}>{t('Resume the subscription')}</Button>}
            </Stack>
          </Alert>
        )}
        {phase === 'cancelled' && (
          <Alert color="red" title={t('The license has expired')}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('Its subscription was cancelled and has ended. Renew it to use the license again.')}</Text>
              {pay && <Button onClick={() => setRenew('renew')}>{t('Renew')}</Button>}
            </Stack>
          </Alert>
        )}
        {onHold && <Text size="sm">{t('No change can be made to the subscription while the license is on hold.')}</Text>}

        {pay && sub && (phase === 'active' || phase === 'past_due' || onHold) && (
          <Group>
            <Button variant="light" color="red" onClick={() => setConfirmCancel(true)} disabled={onHold}>
              {t('Cancel the subscription')}
            </Button>
          </Group>
        )}
      </Stack>

      <Modal opened={confirmCancel} onClose={() => setConfirmCancel(false)} title={t('Cancel the subscription?')} centered>
        <Text mb="lg">
          {periodEnd
            ? t('It stays active until {{date}}, then ends. Nothing more is charged.', { date: formatDate(periodEnd) })
            : t('It stays active until the end of the paid period, then ends. Nothing more is charged.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmCancel(false)} data-autofocus>
            {t('Keep the subscription')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() =>
              act(async () => {
                try {
                  await cancel.mutateAsync(license.id)
                  notifySuccess(t('Subscription cancelled'), t('{{title}} stays active until {{date}}.', { title: license.title, date: formatDate(periodEnd) }))
                } finally {
                  setConfirmCancel(false)
                }
              })
            }
          >
            {t('Cancel the subscription')}
          </Button>
        </Group>
      </Modal>
      <RenewDialog opened={renew !== null} mode={renew ?? 'renew'} license={license} platform={platform} onClose={() => setRenew(null)} />
    </Card>
  )
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  )
}
