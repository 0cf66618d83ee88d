import { useState, type ReactNode } from 'react'
import { ActionIcon, Alert, Button, Card, Divider, Grid, Group, NativeSelect, Radio, Stack, Stepper, Text, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import {
  ERRORS,
  STEPPER_MAX,
  STEPPER_MAX_DIGITS,
  STEPPER_MIN,
  balanceCanPay,
  chargedNowCents,
  discountedTotal,
  pricePerTerm,
  shortfallCents,
  stepperValue,
  OS_TYPES,
  PLATFORM_TITLES,
  type Cents,
  type OsType,
  type Platform,
} from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { leave } from '../../../lib/leave.ts'
import { openFillBalance } from '../../../lib/fill-balance.ts'
import { PURCHASE_NOT_PAID, paths, withQuery } from '../../../config/paths.ts'
import { PURCHASE_PROMO_ERRORS, buy, subscribe, type PurchaseBody } from '../api/purchase.ts'
import { useRefreshProfile } from '../api/refresh.ts'
import { isSubscription, osTypesOf, type ShownLine } from './catalogue.ts'
import { PromoInput, type AppliedPromo } from './PromoInput.tsx'

/** Section 4: the basket's two steps (1 order, 2 payment); the step is clamped to them. */
const STEPS = ['Order', 'Payment'] as const
type PaymentSource = PurchaseBody['payment_source']

/** A step's status: completing a step makes the next one active. */
const statusOf = (step: number, active: number) => (step < active ? 'Completed' : step === active ? 'Active' : 'Awaiting')

/**
 * The two checkout steps with the order summary beside them. `order` is step 1's body (the
 * steppers or the radio choice); the lines are what step 2 pays for.
 */
export function Checkout({
  platform,
  lines,
  order,
  balance,
  loading,
}: {
  platform: Platform
  lines: ShownLine[]
  order: ReactNode
  balance: Cents
  loading: boolean
}) {
  const { t } = useTranslation()
  const [step, setStep] = useState(0)
  const [promo, setPromo] = useState<AppliedPromo | null>(null)
  // section 5: what is charged now, each subscription's first period; the balance must hold it
  const subtotal = chargedNowCents(lines)
  const total = discountedTotal(subtotal, promo?.discount)
  // section 4: continue is off while the total is about zero
  const payable = total > 0 && lines.every((l) => l.unit_cents !== null)

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder padding="lg">
          <Stepper
            active={step}
            onStepClick={(s) => s < step && setStep(Math.max(0, Math.min(STEPS.length - 1, s)))}
            allowNextStepsSelect={false}
            size="sm"
            mb="lg"
          >
            {STEPS.map((label, i) => (
              <Stepper.Step key={label} label={t(label)} description={t(statusOf(i, step))} />
            ))}
          </Stepper>
          {step === 0 ? (
            <Stack gap="md">
              {order}
              <PromoInput platform={platform} product={lines[0]?.config.product ?? null} applied={promo} onApply={setPromo} />
              <Group justify="flex-end">
                <Button onClick={() => setStep(1)} disabled={loading || !payable}>
                  {t('Continue')}
                </Button>
              </Group>
            </Stack>
          ) : (
            <PaymentStep platform={platform} lines={lines} total={total} promo={promo} balance={balance} onBack={() => setStep(0)} />
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <OrderSummary lines={lines} subtotal={subtotal} total={total} promo={promo} loading={loading} />
      </Grid.Col>
    </Grid>
  )
}

/**
 * The order summary sidebar: each line, its amount, and what is charged now (the basket's total, or
 * an upgrade's one line): a subscription's first period, its renewals said under its line.
 */
export function OrderSummary({
  lines,
  subtotal,
  total,
  promo,
  loading,
  empty,
}: {
  lines: (Pick<ShownLine, 'key' | 'title' | 'count' | 'unit_cents' | 'amount_cents'> & Partial<Pick<ShownLine, 'renews_every_months'>>)[]
  subtotal: Cents
  total: Cents
  promo: AppliedPromo | null
  loading: boolean
  /** what an empty summary says (the basket: that it is empty) */
  empty?: string
}) {
  const { t } = useTranslation()
  return (
    <Card withBorder padding="lg" component="aside" aria-labelledby="order-summary">
      <Title order={2} size="h4" id="order-summary" mb="sm">
        {t('Order summary')}
      </Title>
      {loading ? (
        <Text size="sm" c="dimmed">
          {t('Loading prices…')}
        </Text>
      ) : lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty ?? t('Your basket is empty.')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {lines.map((l) => (
            <li key={l.key}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm">
                  {t(l.title)} × {l.count}
                </Text>
                <Text size="sm" fw={500}>
                  {l.unit_cents === null ? t('Not for sale') : formatCents(l.amount_cents)}
                </Text>
              </Group>
              {l.unit_cents !== null && l.renews_every_months && (
                <Text size="xs" c="dimmed" data-testid="renewal-note">
                  {t('Then {{price}} until you cancel.', { price: pricePerTerm(formatCents(l.amount_cents), l.renews_every_months) })}
                </Text>
              )}
            </li>
          ))}
        </Stack>
      )}
      {promo && lines.some((l) => l.renews_every_months) && (
        <Text size="xs" c="dimmed" mt="xs" data-testid="promo-first-period">
          {t('The promo code applies to the first period only; renewals are charged at the full price.')}
        </Text>
      )}
      <Divider my="sm" />
      {promo && (
        <>
          <Group justify="space-between">
            <Text size="sm">{t('Subtotal')}</Text>
            <Text size="sm">{formatCents(subtotal)}</Text>
          </Group>
          <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('Promo code {{code}}', { code: promo.promocode })}
            </Text>
            <Text size="sm" data-testid="order-discount" style={{ whiteSpace: 'nowrap' }}>
              −{formatCents(subtotal - total)}
            </Text>
          </Group>
        </>
      )}
      <Group justify="space-between">
        <Text fw={600}>{t('Charged now')}</Text>
        <Text fw={700} data-testid="order-total">
          {formatCents(total)}
        </Text>
      </Group>
    </Card>
  )
}

/** Section 5: the quantity stepper, a whole number from 0 to 999 (0 removes the line). */
export function QuantityStepper({ label, value, onChange }: { label: string; value: number; onChange: (n: number) => void }) {
  const { t } = useTranslation()
  const [text, setText] = useState<string | null>(null)
  const commit = () => {
    if (text === null) return
    setText(null)
    onChange(stepperValue(text))
  }
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="default" size="lg" onClick={() => onChange(stepperValue(value - 1))} disabled={value <= STEPPER_MIN} aria-label={t('One less')}>
        −
      </ActionIcon>
      <TextInput
        aria-label={label}
        value={text ?? String(value)}
        onChange={(e) => setText(e.currentTarget.value.replace(/\D/g, '').slice(0, STEPPER_MAX_DIGITS))}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
        inputMode="numeric"
        maxLength={STEPPER_MAX_DIGITS}
        w={64}
        styles={{ input: { textAlign: 'center' } }}
      />
      <ActionIcon variant="default" size="lg" onClick={() => onChange(stepperValue(value + 1))} disabled={value >= STEPPER_MAX} aria-label={t('One more')}>
        +
      </ActionIcon>
    </Group>
  )
}

/** The payment methods of a checkout (section 9), in the order shown. */
export const PAYMENT_METHODS: { value: PaymentSource; label: string }[] = [
  { value: 'balance', label: 'From the balance' },
  { value: 'stripe', label: 'By card (Visa, MasterCard, American Express)' },
  { value: 'paypal', label: 'With PayPal' },
]

/** Step 2: the balance (when it holds what is charged now and no promo is applied), a card or PayPal. */
function PaymentStep({
  platform,
  lines,
  total,
  promo,
  balance,
  onBack,
}: {
  platform: Platform
  lines: ShownLine[]
  total: Cents
  promo: AppliedPromo | null
  balance: Cents
  onBack: () => void
}) {
  const { t } = useTranslation()
  const refreshProfile = useRefreshProfile()
  const navigate = useNavigate()
  const location = useLocation()
  const balanceOk = balanceCanPay(balance, total, promo !== null)
  const [method, setMethod] = useState<PaymentSource>(balanceOk ? 'balance' : 'stripe')
  const [paying, setPaying] = useState(false)
  const [problem, setProblem] = useState<'insufficient_funds' | 'item_not_for_sale' | 'external_payments_unavailable' | 'promo' | null>(null)
  const [promoProblem, setPromoProblem] = useState('')
  const shortfall = shortfallCents(balance, total)
  const here = `${location.pathname}${location.search}`

  const pay = async () => {
    setPaying(true)
    setProblem(null)
    const body: PurchaseBody = {
      payment_source: method,
      success_url: paths.licensePurchaseSuccess(platform),
      // a card or PayPal payment left unpaid comes back here, where the shell says so
      cancel_url: withQuery(here, PURCHASE_NOT_PAID),
      items: lines.map((l) => ({ config: l.config, count: l.count })),
      ...(promo ? { promocode: promo.promocode } : {}),
    }
    try {
      const answer = await (lines.every((l) => isSubscription(l.config.product)) ? subscribe(body) : buy(body))
      if (answer.status === 'pending' && answer.payment) {
        leave.to(answer.payment.provider_data.url)
        return
      }
      await refreshProfile()
      void navigate(paths.licensePurchaseSuccess(platform))
    } catch (err) {
      const promoRefusal = PURCHASE_PROMO_ERRORS.find((name) => err instanceof ApiError && err.code === ERRORS[name].code)
      if (promoRefusal) {
        setProblem('promo')
        setPromoProblem(t('{{message}} ({{platform}})', { message: t(ERRORS[promoRefusal].code), platform: PLATFORM_TITLES[platform] }))
      } else if (err instanceof ApiError && !err.shown) {
        const code =
          err.code === ERRORS.insufficient_funds.code
            ? 'insufficient_funds'
            : err.code === ERRORS.external_payments_unavailable.code
              ? 'external_payments_unavailable'
              : 'item_not_for_sale'
        setProblem(code)
        // the balance or the prices moved under the page: read them again
        if (code !== 'external_payments_unavailable') void refreshProfile()
        if (code === 'insufficient_funds') setMethod('stripe')
      }
      setPaying(false)
    }
  }

  return (
    <Stack gap="md">
      <Radio.Group value={method} onChange={(v) => setMethod(v as PaymentSource)} label={t('Payment method')}>
        <Stack gap="sm" mt="xs">
          {PAYMENT_METHODS.map((m) => (
            <Radio
              key={m.value}
              value={m.value}
              label={t(m.label)}
              disabled={m.value === 'balance' && !balanceOk}
              description={m.value !== 'balance' ? undefined : promo ? t('Not with a promo code') : t('Balance: {{amount}}', { amount: formatCents(balance) })}
            />
          ))}
        </Stack>
      </Radio.Group>
      {problem === 'insufficient_funds' && (
        <Alert color="red" role="alert">
          {t(ERRORS.insufficient_funds.code)}
        </Alert>
      )}
      {shortfall > 0 && !promo && <FillBalance shortfall={shortfall} />}
      {problem === 'item_not_for_sale' && (
        <Alert color="red" role="alert">
          {t('The prices have changed: check your order and pay again.')}
        </Alert>
      )}
      {problem === 'promo' && (
        <Alert color="red" role="alert">
          {promoProblem} {t('Go back to the order to remove the code.')}
        </Alert>
      )}
      {problem === 'external_payments_unavailable' && (
        <Alert color="red" role="alert">
          {t('Card and PayPal payments are unavailable right now. Pay from the balance or try again later.')}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          {t('Back to the order')}
        </Button>
        <Button onClick={() => void pay()} loading={paying} disabled={method === 'balance' && !balanceOk}>
          {t('Pay {{amount}}', { amount: formatCents(total) })}
        </Button>
      </Group>
    </Stack>
  )
}

/** The balance is short of the total: offer to fill it with the shortfall (the fill-balance modal; its checkout returns here). */
export function FillBalance({ shortfall }: { shortfall: Cents }) {
  const { t } = useTranslation()
  return (
    <Alert color="yellow" role="status">
      <Stack gap="xs">
        <Text size="sm">{t('Your balance is short of {{amount}} for this order.', { amount: formatCents(shortfall) })}</Text>
        <Group>
          <Button size="xs" variant="light" onClick={() => openFillBalance({ shortfallCents: shortfall })}>
            {t('Fill the balance')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}

/** The back button of a basket page: the license selection, or the dashboard from there. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button component={Link} to={to} variant="subtle" px={0} mb="sm">
      ← {children}
    </Button>
  )
}

/** The os a Nuitrack line's licenses are for (Windows unless chosen); nothing for products without one. */
export function OsChoice({
  label,
  product,
  value,
  onChange,
}: {
  label: string
  product: string
  value: OsType | null | undefined
  onChange: (os: OsType) => void
}) {
  const { t } = useTranslation()
  const types = osTypesOf(product)
  if (types.length === 0) return null
  return (
    <NativeSelect
      aria-label={label}
      size="xs"
      w={130}
      value={String(value ?? types[0])}
      onChange={(e) => onChange(Number(e.currentTarget.value) as OsType)}
      data={types.map((os) => ({ value: String(os), label: t(OS_TYPES[os]) }))}
    />
  )
}
