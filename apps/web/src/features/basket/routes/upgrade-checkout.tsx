import { useEffect, useState, type ReactNode } from 'react'
import { Alert, Anchor, Button, Card, Center, Grid, Group, NumberInput, Radio, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useLocation, useNavigate } from 'react-router'
import {
  ERRORS,
  GENERIC_MESSAGES,
  PLATFORM_TITLES,
  SUPPORT_SERVICE,
  balanceCanPay,
  shortfallCents,
  shownUpgradeCost,
  upgradePriceCents,
  usdToCents,
  type Cents,
  type ErrorName,
  type GroupView,
  type LicenseView,
  type PaymentSource,
  type Platform,
} from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { useLicense } from '../../../api/licenses.ts'
import { useGroups } from '../../../api/groups.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { paths, supportUrl } from '../../../config/paths.ts'
import { ApiError } from '../../../lib/api-client.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { leave } from '../../../lib/leave.ts'
import { useBasketData } from '../api/prices.ts'
import { useRefreshAfterPurchase, useRefreshProfile } from '../api/refresh.ts'
import { upgradeGroup, upgradeLicense } from '../api/upgrade.ts'
import { useAnalyticsUpgradeCost } from '../../../api/analytics-upgrade-cost.ts'
import { BackLink, FillBalance, OrderSummary, PAYMENT_METHODS } from '../components/Checkout.tsx'
import {
  UPGRADE_PLATFORMS,
  groupUpgradePlan,
  licenseUpgradePlan,
  upgradeCount,
  type UpgradeCheckoutType,
  type UpgradeLicenseType,
  type UpgradePlan,
  type UpgradeRefusal,
} from '../components/upgrade-plan.ts'
import { Spinner } from '../../../components/Spinner.tsx'

interface RouteProps {
  platform: Platform
  checkoutType: UpgradeCheckoutType
  licenseType: UpgradeLicenseType
  /** the route's id segment, unchecked */
  id: string
}

/**
 * /app/{platform}/basket/checkout/{upgrade|upgrade-y}/{pro|trial}/{id}/ (spec section 2): the
 * upgrade of one license, or of a group's available licenses. The segments are checked by the
 * app's gate; here a non-numeric id or a failed load shows the error dialog and goes back to the
 * dashboard, and a license or group of another platform goes to its own platform's checkout.
 */
export function UpgradeCheckoutRoute(props: RouteProps) {
  const numeric = /^\d+$/.test(props.id) && Number(props.id) > 0
  if (!numeric) return <NotFoundBack platform={props.platform} group={props.checkoutType === 'upgrade-y'} />
  return props.checkoutType === 'upgrade' ? <LicenseUpgrade {...props} id={Number(props.id)} /> : <GroupUpgrade {...props} id={Number(props.id)} />
}

/** The error dialog (license or group not found), then the dashboard. */
function NotFoundBack({ platform, group }: { platform: Platform; group: boolean }) {
  const { t } = useTranslation()
  useEffect(() => {
    errorStore.show({ title: GENERIC_MESSAGES.error_title, message: group ? t('Group not found') : t('License not found'), kind: 'error' })
  }, [group, t])
  return <Navigate to={paths.dashboard(platform)} replace />
}

function Loading({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Spinner label={label} />
    </Center>
  )
}

type Props = Omit<RouteProps, 'id'> & { id: number }

function LicenseUpgrade({ platform, licenseType, id }: Props) {
  const { t } = useTranslation()
  const license = useLicense(String(id))
  if (license.isError) return <NotFoundBack platform={platform} group={false} />
  if (license.isPending) return <Loading label={t('Loading the license')} />
  const view = license.data
  if (view.type !== platform && UPGRADE_PLATFORMS.includes(view.type)) {
    return <Navigate to={paths.upgradeCheckout(view.type, 'upgrade', licenseType, view.id)} replace />
  }
  const plan: UpgradePlan | { refused: UpgradeRefusal } =
    view.type === platform ? licenseUpgradePlan(view, licenseType, new Date()) : { refused: 'not_upgradeable' }
  return (
    <UpgradeScreen
      platform={view.type}
      checkoutType="upgrade"
      id={view.id}
      plan={plan}
      subject={{ kind: 'license', license: view }}
      back={paths.licenseInfo(view.type, view.id)}
      onRecheck={() => void license.refetch()}
    />
  )
}

function GroupUpgrade({ platform, licenseType, id }: Props) {
  const { t } = useTranslation()
  const groups = useGroups()
  const group = groups.data?.groups.find((g) => g.id === id)
  if (groups.isError || (groups.isSuccess && !group)) return <NotFoundBack platform={platform} group />
  if (!group) return <Loading label={t('Loading the group')} />
  if (group.type !== platform && UPGRADE_PLATFORMS.includes(group.type)) {
    return <Navigate to={paths.upgradeCheckout(group.type, 'upgrade-y', licenseType, group.id)} replace />
  }
  const plan: UpgradePlan | { refused: UpgradeRefusal } =
    group.type === platform ? groupUpgradePlan(group, licenseType, new Date()) : { refused: 'not_upgradeable' }
  return (
    <UpgradeScreen
      platform={group.type}
      checkoutType="upgrade-y"
      id={group.id}
      plan={plan}
      subject={{ kind: 'group', group }}
      back={paths.preInfo(group.type, group.id)}
      onRecheck={() => void groups.refetch()}
    />
  )
}

type Subject = { kind: 'license'; license: LicenseView } | { kind: 'group'; group: GroupView }

/** The failures of the upgrade call this screen explains in place. */
type Problem = 'insufficient_funds' | 'external_payments_unavailable' | 'action_unavailable' | 'by_support' | 'no_price'
const isError = (err: unknown, name: ErrorName) => err instanceof ApiError && !err.shown && err.code === ERRORS[name].code

function UpgradeScreen({
  platform,
  checkoutType,
  id,
  plan,
  subject,
  back,
  onRecheck,
}: {
  platform: Platform
  checkoutType: UpgradeCheckoutType
  id: number
  plan: UpgradePlan | { refused: UpgradeRefusal }
  subject: Subject
  back: string
  onRecheck: () => void
}) {
  const { t } = useTranslation()
  // the server said the license went on hold (a payment opened elsewhere): the hold wins until it ends
  const [heldNow, setHeldNow] = useState(false)
  const refusal = heldNow ? 'on_hold' : 'refused' in plan ? plan.refused : null
  const group = subject.kind === 'group'
  const title = 'refused' in plan ? t('Upgrade · {{platform}}', { platform: PLATFORM_TITLES[platform] }) : t('Upgrade to {{product}}', { product: plan.to })

  return (
    <>
      <BackLink to={back}>{group ? t('Back to the group') : t('Back to the license')}</BackLink>
      <PageTitle>{title}</PageTitle>
      {refusal !== null || 'refused' in plan ? (
        <Card withBorder padding="lg" maw={720}>
          <Stack gap="md">
            <SubjectFacts subject={subject} plan={'refused' in plan ? null : plan} />
            <Refusal
              refusal={refusal ?? 'not_upgradeable'}
              platform={platform}
              id={id}
              group={group}
              back={back}
              onRecheck={() => {
                // the view read again decides: a hold that ended gives the pay button back
                setHeldNow(false)
                onRecheck()
              }}
            />
          </Stack>
        </Card>
      ) : (
        <UpgradeOrder platform={platform} checkoutType={checkoutType} id={id} plan={plan} subject={subject} onHeld={() => setHeldNow(true)} />
      )}
    </>
  )
}

/** What is upgraded: the license (title, key) or the group (title, available licenses), and from → to. */
function SubjectFacts({ subject, plan }: { subject: Subject; plan: UpgradePlan | null }) {
  const { t } = useTranslation()
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm" component="dl" m={0}>
      {subject.kind === 'license' ? (
        <>
          <Fact label={t('License')}>{subject.license.title}</Fact>
          <Fact label={t('Activation key')}>
            <Text ff="monospace" span data-testid="upgrade-key" style={{ overflowWrap: 'anywhere' }}>
              {subject.license.token}
            </Text>
          </Fact>
        </>
      ) : (
        <>
          <Fact label={t('Group')}>{subject.group.title}</Fact>
          <Fact label={t('Available licenses')}>{subject.group.limit}</Fact>
        </>
      )}
      {plan && (
        <Fact label={t('Upgrade')}>
          <span data-testid="upgrade-from-to">
            {plan.kind === 'trial' ? t('{{product}} trial', { product: plan.from }) : plan.from} → {plan.to}
          </span>
        </Fact>
      )}
    </SimpleGrid>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  )
}

/** Why there is no pay button: on hold (with a re-check), by support, nothing to upgrade. */
function Refusal({
  refusal,
  platform,
  id,
  group,
  back,
  onRecheck,
}: {
  refusal: UpgradeRefusal
  platform: Platform
  id: number
  group: boolean
  back: string
  onRecheck: () => void
}) {
  const { t } = useTranslation()
  const backLink = (
    <Anchor component={Link} to={back} size="sm">
      {group ? t('Back to the group') : t('Back to the license')}
    </Anchor>
  )
  if (refusal === 'on_hold') {
    return (
      // orange's own title shade is too pale on its tint (contrast): the title takes the text colour
      <Alert color="orange" title={t('On hold')} role="status" data-testid="upgrade-on-hold" styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {group
              ? t(
                  'Licenses of this group are being upgraded: they are on hold for about 15 minutes (up to 30) while the payment completes. Every action is disabled until then.',
                )
              : t(
                  'This license is being upgraded: it is on hold for about 15 minutes (up to 30) while the payment completes. Every action is disabled until then.',
                )}
          </Text>
          <Text size="sm">{t('If you cancelled the payment, the hold ends by itself within 30 minutes.')}</Text>
          <Group gap="md">
            <Button size="xs" variant="default" onClick={onRecheck}>
              {t('Check again')}
            </Button>
            {backLink}
          </Group>
        </Stack>
      </Alert>
    )
  }
  if (refusal === 'by_support') {
    return (
      <Alert color="blue" title={t('Upgrade through support')} role="status">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t(ERRORS.upgrade_by_support.code)}</Text>
          <Group gap="md">
            <Anchor href={supportUrl(SUPPORT_SERVICE[platform], group ? undefined : id)} target="_blank" rel="noopener noreferrer" size="sm">
              {t('Contact support')}
              <VisuallyHidden> {t('(opens in a new tab)')}</VisuallyHidden>
            </Anchor>
            {backLink}
          </Group>
        </Stack>
      </Alert>
    )
  }
  return (
    <Alert color="gray" title={t('No upgrade here')} role="status">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {refusal === 'none_available'
            ? t('This group has no license available to upgrade.')
            : group
              ? t("This group's licenses cannot be upgraded this way.")
              : t('This license cannot be upgraded this way.')}
        </Text>
        {backLink}
      </Stack>
    </Alert>
  )
}

/** The order: the price, the count of a group upgrade, the payment method and the pay button, with the summary beside. */
function UpgradeOrder({
  platform,
  checkoutType,
  id,
  plan,
  subject,
  onHeld,
}: {
  platform: Platform
  checkoutType: UpgradeCheckoutType
  id: number
  plan: UpgradePlan
  subject: Subject
  onHeld: () => void
}) {
  const { t } = useTranslation()
  const data = useBasketData()
  const navigate = useNavigate()
  const location = useLocation()
  const refreshProfile = useRefreshProfile()
  const refreshAll = useRefreshAfterPurchase()
  const group = subject.kind === 'group' ? subject.group : null
  // Nuitrack Analytics prices its trial's upgrade on the server (upgrade-cost); the others from the price rows
  const byCost = plan.kind === 'trial' && platform === 'nuitrack-analytics'
  const cost = useAnalyticsUpgradeCost(id, byCost)
  const unit: Cents | null | undefined = byCost
    ? cost.isSuccess
      ? usdToCents(shownUpgradeCost(cost.data.amount))
      : cost.isError
        ? null
        : undefined
    : data
      ? upgradePriceCents(plan.soldAs, data.rows)
      : undefined
  const loading = unit === undefined || !data

  const [countText, setCountText] = useState('1')
  const [countError, setCountError] = useState<string | null>(null)
  const counted = group ? upgradeCount(countText, group.limit) : { count: 1 }
  const count = 'count' in counted ? counted.count : null
  const total: Cents = unit && count ? unit * count : 0
  const balance = data?.balanceCents ?? 0
  const balanceOk = balanceCanPay(balance, total, false)
  const [chosen, setChosen] = useState<PaymentSource | null>(null)
  const method: PaymentSource = chosen === 'balance' && !balanceOk ? 'stripe' : (chosen ?? (balanceOk ? 'balance' : 'stripe'))
  const [paying, setPaying] = useState(false)
  const [problem, setProblem] = useState<Problem | null>(null)
  const shownProblem = unit === null ? 'no_price' : problem
  const fieldError = countError ?? ('error' in counted ? t(counted.error, { max: group?.limit ?? 1 }) : null)
  const here = `${location.pathname}${location.search}`
  const info = paths.licenseInfo(platform, id)
  // an upgrade's success modal goes on to the license's info page; a group's to the dashboard
  const success = checkoutType === 'upgrade' ? paths.licensePurchaseSuccess(platform, info) : paths.licensePurchaseSuccess(platform)

  const pay = async () => {
    if (count === null || unit === null || unit === undefined) return
    setPaying(true)
    setProblem(null)
    setCountError(null)
    const body = { payment_source: method, success_url: success, cancel_url: here }
    try {
      const answer = group ? await upgradeGroup(id, { ...body, limit: count }) : await upgradeLicense(id, body)
      if (answer.status === 'pending' && answer.payment) {
        leave.to(answer.payment.provider_data.url)
        return
      }
      await refreshProfile()
      void navigate(success)
    } catch (err) {
      setPaying(false)
      if (isError(err, 'license_on_hold')) {
        onHeld()
        void refreshAll()
      } else if (isError(err, 'insufficient_funds')) {
        setProblem('insufficient_funds')
        setChosen('stripe')
        void refreshProfile()
      } else if (isError(err, 'external_payments_unavailable')) {
        setProblem('external_payments_unavailable')
      } else if (isError(err, 'upgrade_by_support')) {
        setProblem('by_support')
      } else if (isError(err, 'action_unavailable')) {
        setProblem('action_unavailable')
        void refreshAll()
      } else if (isError(err, 'not_enough_licenses')) {
        setCountError(t(ERRORS.not_enough_licenses.code))
        void refreshAll()
      }
    }
  }

  const priceText =
    unit === undefined
      ? t('Loading prices…')
      : unit === null
        ? t('Not for sale')
        : plan.kind === 'trial'
          ? t('{{amount}} per month', { amount: formatCents(unit) })
          : t('{{amount}} per license', { amount: formatCents(unit) })
  const shortfall = data && unit ? shortfallCents(balance, total) : 0
  const line = {
    key: plan.soldAs,
    title: plan.kind === 'trial' ? plan.to : t('Upgrade to {{product}}', { product: plan.to }),
    count: count ?? 0,
    unit_cents: unit ?? null,
    amount_cents: total,
  }

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder padding="lg">
          <Stack gap="md">
            <SubjectFacts subject={subject} plan={plan} />
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t('Price')}
              </Text>
              <Text data-testid="upgrade-price">{priceText}</Text>
            </div>
            {group && (
              <NumberInput
                label={t('Licenses to upgrade')}
                description={t('From 1 to {{max}}: the licenses of this group still available.', { max: group.limit })}
                value={countText}
                onChange={(v) => (setCountText(String(v)), setCountError(null))}
                min={1}
                max={group.limit}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                hideControls
                inputMode="numeric"
                maw={360}
                error={fieldError}
              />
            )}
            <Radio.Group value={method} onChange={(v) => setChosen(v as PaymentSource)} label={t('Payment method')}>
              <Stack gap="sm" mt="xs">
                {PAYMENT_METHODS.map((m) => (
                  <Radio
                    key={m.value}
                    value={m.value}
                    label={t(m.label)}
                    disabled={m.value === 'balance' && !balanceOk}
                    description={m.value === 'balance' ? t('Balance: {{amount}}', { amount: formatCents(balance) }) : undefined}
                  />
                ))}
              </Stack>
            </Radio.Group>
            {shortfall > 0 && <FillBalance shortfall={shortfall} />}
            <ProblemAlert problem={shownProblem} platform={platform} id={id} group={group !== null} />
            <Group justify="flex-end">
              <Button onClick={() => void pay()} loading={paying} disabled={loading || count === null || unit === null || (method === 'balance' && !balanceOk)}>
                {total > 0 ? t('Pay {{amount}}', { amount: formatCents(total) }) : t('Pay')}
              </Button>
            </Group>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <OrderSummary
          lines={count === null ? [] : [line]}
          subtotal={total}
          total={total}
          promo={null}
          loading={loading}
          empty={t('Enter how many licenses to upgrade.')}
        />
        {plan.kind === 'trial' && unit ? (
          <Text size="xs" c="dimmed" mt="xs">
            {t('Then {{amount}} every month until you cancel.', { amount: formatCents(unit) })}
          </Text>
        ) : null}
      </Grid.Col>
    </Grid>
  )
}

function ProblemAlert({ problem, platform, id, group }: { problem: Problem | null; platform: Platform; id: number; group: boolean }) {
  const { t } = useTranslation()
  if (problem === null) return null
  const text =
    problem === 'insufficient_funds'
      ? t(ERRORS.insufficient_funds.code)
      : problem === 'external_payments_unavailable'
        ? t('Card and PayPal payments are unavailable right now. Pay from the balance or try again later.')
        : problem === 'action_unavailable'
          ? t('This upgrade is no longer available. Go back and check the license.')
          : problem === 'no_price'
            ? t('The upgrade price could not be read. Try again later or contact support.')
            : t(ERRORS.upgrade_by_support.code)
  return (
    <Alert color="red" role="alert">
      <Stack gap={4} align="flex-start">
        <Text size="sm">{text}</Text>
        {(problem === 'by_support' || problem === 'no_price') && (
          <Anchor href={supportUrl(SUPPORT_SERVICE[platform], group ? undefined : id)} target="_blank" rel="noopener noreferrer" size="sm">
            {t('Contact support')}
            <VisuallyHidden> {t('(opens in a new tab)')}</VisuallyHidden>
          </Anchor>
        )}
      </Stack>
    </Alert>
  )
}
