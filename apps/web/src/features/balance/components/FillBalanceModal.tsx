import { useState, type FormEvent } from 'react'
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLocation, useParams } from 'react-router'
import { z } from 'zod'
import {
  TOP_UP_MAX_DIGITS,
  isAppReturnPath,
  isPlatform,
  topUpDefault,
  topUpMinimum,
  topUpProblem,
  type Cents,
  type ExternalPaymentSource,
} from '@portal/domain'
import { formatUsd } from '../../../lib/format.ts'
import { paths } from '../../../config/paths.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { fillBalanceStore, useFillBalance, type FillBalanceRequest } from '../../../lib/fill-balance.ts'
import { useZodForm } from '../../../lib/form.ts'
import { useRefillBalance } from '../api/refill.ts'

/** The amount field: whole dollars from the minimum (20, or the shortfall) to 6 digits (spec section 5). */
export const topUpForm = (shortfall: Cents) =>
  z.object({
    amount: z
      .string()
      .regex(/^\d+$/, 'refill_amount_error')
      .transform(Number)
      .refine((n) => topUpProblem(n, shortfall) === null, 'refill_amount_error'),
  })

/** The amount the modal starts with: the one asked for when the rules take it, else 100 or the shortfall. */
export function startingAmount({ amount, shortfallCents = 0 }: FillBalanceRequest): number {
  return amount !== undefined && topUpProblem(amount, shortfallCents) === null ? amount : topUpDefault(shortfallCents)
}

/** The fill-balance modal of the whole app: open it with `openFillBalance()` from lib/fill-balance.ts. */
export function FillBalanceModal() {
  const { t } = useTranslation()
  const request = useFillBalance()
  return (
    <Modal opened={request !== null} onClose={fillBalanceStore.close} title={t('Add funds')} centered>
      {/* a new form per opening, so each starts from its own amount */}
      {request && <FillBalanceForm request={request} />}
    </Modal>
  )
}

function FillBalanceForm({ request }: { request: FillBalanceRequest }) {
  const { t } = useTranslation()
  const { platform: param } = useParams()
  const location = useLocation()
  const profile = useProfile()
  const refill = useRefillBalance()
  const shortfall = request.shortfallCents ?? 0
  const minimum = topUpMinimum(shortfall)
  const form = useZodForm(topUpForm(shortfall), { amount: String(startingAmount(request)) })
  const [paying, setPaying] = useState<ExternalPaymentSource | null>(null)

  const amount = form.values.amount === '' ? NaN : Number(form.values.amount)
  const belowMinimum = !(amount >= minimum)
  const platform = isPlatform(param) ? param : 'nuitrack'
  const here = `${location.pathname}${location.search}`

  const pay = async (source: ExternalPaymentSource) => {
    const valid = form.validate()
    if (!valid || paying) return
    setPaying(source)
    try {
      const { payment } = await refill.mutateAsync({
        amount: valid.amount,
        payment_source: source,
        success_url: paths.balancePurchaseSuccess(platform, isAppReturnPath(here) ? here : paths.dashboard(platform)),
        cancel_url: paths.balanceTopUpNotPaid(platform),
      })
      // the provider's hosted checkout; the page is left, so the button stays busy
      window.location.assign(payment.provider_data.url)
    } catch (err) {
      setPaying(null)
      form.showServerError(err)
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void pay('stripe')
  }

  const balance = profile.data?.client_info.balance
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {balance !== undefined && (
          <Text size="sm" c="dimmed">
            {t('Current balance: {{amount}}', { amount: formatUsd(balance) })}
          </Text>
        )}
        {shortfall > 0 && <Text size="sm">{t('Your balance is short of this purchase by {{amount}}.', { amount: formatUsd(shortfall / 100) })}</Text>}
        <TextInput
          label={t('Amount, USD')}
          leftSection="$"
          inputMode="numeric"
          autoComplete="off"
          maxLength={TOP_UP_MAX_DIGITS}
          value={form.values.amount}
          onChange={(e) => form.set('amount', e.currentTarget.value.replace(/\D/g, '').slice(0, TOP_UP_MAX_DIGITS))}
          error={form.errors.amount}
          description={
            <Text span inherit c={belowMinimum ? 'var(--mantine-color-error)' : undefined} fw={belowMinimum ? 600 : undefined} data-below={belowMinimum}>
              {t('Minimum amount: {{amount}}', { amount: formatUsd(minimum) })}
            </Text>
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          data-autofocus
        />
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Group grow>
          <Button type="submit" disabled={belowMinimum || paying === 'paypal'} loading={paying === 'stripe'}>
            {t('Pay by card')}
          </Button>
          <Button variant="default" disabled={belowMinimum || paying === 'stripe'} loading={paying === 'paypal'} onClick={() => void pay('paypal')}>
            {t('PayPal')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
