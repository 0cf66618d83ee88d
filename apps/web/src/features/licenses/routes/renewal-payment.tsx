import { useEffect, useState } from 'react'
import { Alert, Anchor, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useParams, useSearchParams } from 'react-router'
import { ERRORS, GENERIC_MESSAGES, isError, type Platform, type RenewalPaymentView } from '@portal/domain'
import { formatDate, formatUsd } from '../../../lib/format.ts'
import { paths } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { leave } from '../../../lib/leave.ts'
import { Field } from '../components/SubscriptionPanel.tsx'
import { PAY_RENEWAL_HANDLED, usePayRenewal } from '../api/pay-renewal.ts'
import { useRenewalPayment } from '../api/renewal-payment.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** how often the page asks again while the payment system confirms a payment the customer made */
const CONFIRM_POLL_MS = 2000

/**
 * /{platform}/dashboard/{id}/renewal-payment/: the mail's link when the card asked for
 * authentication on a renewal. It shows the amount, the period it pays for and the pay-by date, and
 * pays it on-session through the provider's checkout, which comes back here with ?paid: the page
 * then waits for the payment system to confirm and shows the license's new end.
 */
export function RenewalPaymentPage() {
  const { t } = useTranslation()
  const { platform, id = '' } = useParams() as { platform: Platform; id: string }
  const [search] = useSearchParams()
  const returned = search.has('paid')
  const numeric = /^\d+$/.test(id)
  // back from the checkout: read again until the payment is confirmed (the renewal is no longer due)
  const view = useRenewalPayment(numeric ? Number(id) : 0, { enabled: numeric, confirming: returned, everyMs: CONFIRM_POLL_MS })
  const failed = !numeric || view.isError

  useEffect(() => {
    if (failed) errorStore.show({ title: GENERIC_MESSAGES.error_title, message: t('License not found'), kind: 'error' })
  }, [failed, t])

  if (failed) return <Navigate to={paths.dashboard(platform)} replace />
  if (view.isPending) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading the renewal payment')} />
      </Center>
    )
  }
  return <RenewalPayment view={view.data} platform={platform} confirming={returned && view.data.due} />
}

function RenewalPayment({ view, platform, confirming }: { view: RenewalPaymentView; platform: Platform; confirming: boolean }) {
  const { t } = useTranslation()
  const pay = usePayRenewal()
  const [problem, setProblem] = useState<string | null>(null)
  const here = paths.renewalPayment(platform, view.license_id)
  const info = paths.licenseInfo(platform, view.license_id)

  const start = async () => {
    setProblem(null)
    try {
      const answer = await pay.mutateAsync({ id: view.license_id, body: { success_url: `${here}?paid`, cancel_url: here } })
      leave.to(answer.payment.provider_data.url)
    } catch (err) {
      const named = PAY_RENEWAL_HANDLED.find((name) => isError(err, name))
      if (named && err instanceof ApiError && !err.shown) setProblem(t(ERRORS[named].code))
    }
  }

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Anchor component={Link} to={info} size="sm">
          {t('← Back to the license')}
        </Anchor>
        <Title order={1} size="h2" mt="xs" style={{ overflowWrap: 'anywhere' }}>
          {t('Renewal payment')}
        </Title>
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {view.title}
        </Text>
      </div>

      {view.due ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="renewal-payment-title">
          <Stack gap="md">
            <Title order={2} size="h4" id="renewal-payment-title">
              {t('Confirm the payment with your bank')}
            </Title>
            <Text size="sm">
              {t('Your bank asks you to confirm this renewal, so we could not charge your card without you. The license keeps working until {{date}}.', {
                date: formatDate(view.pay_by),
              })}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
              <Field label={t('Amount')}>
                <span data-testid="renewal-amount">{view.amount === null ? '—' : formatUsd(view.amount)}</span>
              </Field>
              <Field label={t('Period')}>
                <span data-testid="renewal-period">{t('{{from}} to {{to}}', { from: formatDate(view.period_from), to: formatDate(view.period_to) })}</span>
              </Field>
              <Field label={t('Pay by')}>
                <span data-testid="renewal-pay-by">{formatDate(view.pay_by)}</span>
              </Field>
            </SimpleGrid>
            {confirming && (
              <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
                <Loader size="xs" />
                <Text size="sm">{t('Waiting for the payment system to confirm the payment…')}</Text>
              </Group>
            )}
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <Group>
              <Button onClick={() => void start()} loading={pay.isPending}>
                {view.amount === null ? t('Pay now') : t('Pay {{amount}}', { amount: formatUsd(view.amount) })}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {t('If it is not paid by then, the subscription stops. We will not charge the card again without you.')}
            </Text>
          </Stack>
        </Card>
      ) : (
        <NothingDue view={view} info={info} />
      )}
    </Stack>
  )
}

function NothingDue({ view, info }: { view: RenewalPaymentView; info: string }) {
  const { t } = useTranslation()
  const renewed = view.subscription_state === 'active'
  return (
    <Alert
      color={renewed ? 'teal' : 'gray'}
      title={renewed ? t('The renewal is paid') : t('No payment is waiting')}
      data-testid="renewal-settled"
      styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {renewed
            ? t('Thank you. The license runs until {{date}}.', { date: formatDate(view.expire_date) })
            : view.subscription_state === 'stopped'
              ? t('The time to pay this renewal has passed and the subscription has stopped. You can resume it on the license page.')
              : t('Nothing needs to be paid for this license now.')}
        </Text>
        <Anchor component={Link} to={info} size="sm">
          {t('See the license')}
        </Anchor>
      </Stack>
    </Alert>
  )
}
