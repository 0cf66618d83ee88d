import { useState } from 'react'
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLocation, useParams } from 'react-router'
import { z } from 'zod'
import {
  TOP_UP_MAX_DIGITS,
  isAppReturnPath,
  isPlatform,
  refillBody,
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
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { FormError } from '../../../components/FormError.tsx'
import { useRefillBalance } from '../api/refill.ts'

/**
 * The amount field as typed, read into the refill body's amount (whole dollars, 20 to 6 digits),
 * with a shortfall's own minimum on top (spec section 5).
 */
export const topUpForm = (shortfall: Cents) =>
  z.object({
    amount: z
      .string()
      // cents are refused in words of their own, before any other rule
      .refine((v) => !/[.,]/.test(v), { message: 'refill_whole_dollars_error', abort: true })
      .regex(/^\d+$/, 'refill_amount_error')
      .transform(Number)
      .pipe(refillBody.shape.amount.refine((n) => topUpProblem(n, shortfall) === null, 'refill_amount_error')),
  })

/**
 * The amount the modal starts with: the one asked for (whole dollars), as asked, even below the
 * minimum, which the field then shows in red; else 100 or the shortfall.
 */
export function startingAmount({ amount, shortfallCents = 0 }: FillBalanceRequest): number {
  return amount !== undefined ? amount : topUpDefault(shortfallCents)
}

/**
 * What the amount field keeps of what was typed: digits, and a decimal point or comma as typed, so
 * that the field says cents are refused (whole dollars only) instead of joining "25.50" into 2550.
 */
export function typedAmount(typed: string): string {
  const kept = typed.replace(/[^\d.,]/g, '')
  return kept.slice(0, /[.,]/.test(kept) ? TOP_UP_MAX_DIGITS + 3 : TOP_UP_MAX_DIGITS)
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
  const form = useSchemaForm(topUpForm(shortfall), { amount: String(startingAmount(request)) })
  const [paying, setPaying] = useState<ExternalPaymentSource | null>(null)

  const amount = /^\d+$/.test(form.values.amount) ? Number(form.values.amount) : NaN
  const belowMinimum = !(amount >= minimum)
  const platform = isPlatform(param) ? param : 'nuitrack'
  const here = `${location.pathname}${location.search}`

  // `paying` rather than `form.submitting`: two buttons submit, and the page is left on success
  const pay = (source: ExternalPaymentSource) =>
    form.submit(async ({ amount }) => {
      if (paying) return
      setPaying(source)
      try {
        const { payment } = await refill.mutateAsync({
          amount,
          payment_source: source,
          success_url: paths.balancePurchaseSuccess(platform, isAppReturnPath(here) ? here : paths.dashboard(platform)),
          cancel_url: paths.balanceTopUpNotPaid(platform),
        })
        // the provider's hosted checkout; the page is left, so the button stays busy
        window.location.assign(payment.provider_data.url)
      } catch (err) {
        setPaying(null)
        throw err
      }
    })

  const balance = profile.data?.client_info.balance
  return (
    <form onSubmit={pay('stripe')} noValidate>
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
          rightSection={
            <Text size="xs" c="dimmed" data-testid="whole-dollars">
              {t('.00')}
            </Text>
          }
          inputMode="numeric"
          autoComplete="off"
          maxLength={TOP_UP_MAX_DIGITS + 3}
          {...form.getInputProps('amount')}
          // the prefilled amount is selected, so what is typed replaces it
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => {
            const typed = typedAmount(e.currentTarget.value)
            form.setFieldValue('amount', typed)
            if (/[.,]/.test(typed)) form.setFieldError('amount', 'refill_whole_dollars_error')
          }}
          description={
            <Text span inherit c={belowMinimum ? 'var(--mantine-color-error)' : undefined} fw={belowMinimum ? 600 : undefined} data-below={belowMinimum}>
              {t('Minimum amount: {{amount}}', { amount: formatUsd(minimum) })}
            </Text>
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          data-autofocus
        />
        <FormError message={form.formError} />
        <Group grow>
          <Button type="submit" disabled={belowMinimum || paying === 'paypal'} loading={paying === 'stripe'}>
            {t('Pay by card')}
          </Button>
          <Button variant="default" disabled={belowMinimum || paying === 'stripe'} loading={paying === 'paypal'} onClick={() => pay('paypal')()}>
            {t('PayPal')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
