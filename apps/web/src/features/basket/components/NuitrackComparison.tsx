import { useState, type ReactNode } from 'react'
import { Box, Button, Card, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { MONTH_SECONDS, trialOffer, unitPriceCents, type Cents } from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { useStartTrial } from '../../../api/license-mutations.ts'
import { paths } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import type { ShownPriceRow } from '../api/prices.ts'
import { basketEntriesOf, isSubscription, type CheckoutState } from './catalogue.ts'
import { TableScroll } from '../../../components/TableScroll.tsx'
import { useCan } from '../../../lib/use-can.ts'
import classes from './comparison.module.css'

type Cell = boolean | string
interface Row {
  label: string
  trial: Cell
  pro: Cell
  ai: Cell
}
interface Section {
  title: string
  rows: Row[]
}

/** Sections 1 and 2: what Trial, Pro and AI give and need, side by side. */
const SECTIONS: Section[] = [
  {
    title: 'License',
    rows: [
      { label: 'Session limit', trial: '3 minutes a session, unlimited sessions', pro: 'Unlimited', ai: 'Unlimited' },
      { label: 'Commercial use', trial: false, pro: true, ai: true },
      { label: 'Portability (move the license to another device)', trial: false, pro: true, ai: true },
      { label: 'Offline use', trial: true, pro: 'Up to 24 hours between checks', ai: 'Up to 24 hours between checks' },
    ],
  },
  {
    title: 'Hardware and OS support',
    rows: [
      { label: 'Linux x64 / ARMv7', trial: true, pro: true, ai: true },
      { label: 'Windows x64 / x86', trial: true, pro: true, ai: true },
      { label: 'Android', trial: true, pro: true, ai: true },
      { label: 'iOS', trial: false, pro: true, ai: false },
      { label: 'Hardware requirements', trial: 'CPU with AVX, 2 GB RAM', pro: 'CPU with AVX, 2 GB RAM', ai: 'Intel CPU, GTX 1050 Ti or better, 4 GB RAM' },
    ],
  },
  {
    title: 'Features',
    rows: [
      { label: 'Skeleton tracking: 19 joints, up to 6 persons', trial: true, pro: true, ai: true },
      { label: 'Hand tracking and gestures', trial: true, pro: true, ai: true },
      { label: 'Improved tracking', trial: false, pro: false, ai: true },
      { label: 'Object detection', trial: false, pro: false, ai: true },
      { label: 'Pose recognition', trial: false, pro: false, ai: true },
    ],
  },
]

function CellValue({ value }: { value: Cell }) {
  const { t } = useTranslation()
  if (typeof value === 'string') return <Text size="sm">{t(value)}</Text>
  return (
    <>
      <Text span aria-hidden c={value ? 'green' : 'dimmed'} fw={700}>
        {value ? '✓' : '—'}
      </Text>
      <VisuallyHidden>{value ? t('Yes') : t('No')}</VisuallyHidden>
    </>
  )
}

/** The cheapest monthly price of a license type, for the "from" line. */
function fromPrice(licenseType: string, rows: readonly ShownPriceRow[]): Cents | null {
  const prices = basketEntriesOf('nuitrack')
    .filter((e) => e.license_type === licenseType && isSubscription(e.product) && e.config.license_expire_delta !== null)
    .map((e) => ({ e, cost: unitPriceCents(e, rows) }))
    .filter((p) => p.cost !== null && p.e.config.license_expire_delta! <= MONTH_SECONDS)
    .map((p) => p.cost!)
  return prices.length ? Math.min(...prices) : null
}

/** The Nuitrack comparison table with its buy buttons (Pro and AI lead to the subscriptions checkout). */
export function NuitrackComparison({ rows }: { rows: readonly ShownPriceRow[] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const startTrial = useStartTrial()
  const canStart = useCan('licenses')
  const [starting, setStarting] = useState(false)
  const profile = useProfile().data
  // offered only while the client has not taken it (one per client)
  const trial = profile ? trialOffer('nuitrack', profile.trials_used) : null
  const start = async () => {
    if (!trial) return
    setStarting(true)
    try {
      await startTrial.mutateAsync({ product: trial.product, tag: trial.tag })
      notifySuccess(t('Trial started'), t('Your trial license is on the dashboard.'))
      void navigate(paths.dashboard('nuitrack'))
    } catch {
      // the error modal has told the user
      setStarting(false)
    }
  }
  const pro = fromPrice('pro', rows)
  const ai = fromPrice('ai', rows)
  const oldPro = rows.find((r) => r.platform === 'nuitrack' && r.license_type === 'pro' && r.old_price_cents !== null)
  const state = (licenseType: string): CheckoutState => ({ addLicenseType: licenseType })

  const plans: Plan[] = [
    {
      key: 'trial',
      title: t('Trial'),
      price: t('Free'),
      action: (where) =>
        profile && !trial ? (
          // this is the basket: Pro and AI are bought from the buttons beside it
          <Text size="sm" data-testid={where === 'table' ? 'trial-used' : 'trial-used-card'}>
            {t('You have used the free trial: buy Pro or AI.')}
          </Text>
        ) : (
          <Button variant="default" onClick={() => void start()} loading={starting} disabled={!trial || !canStart}>
            {t('Start the free trial')}
          </Button>
        ),
    },
    {
      key: 'pro',
      title: t('Pro'),
      price: (
        <>
          {pro === null ? t('Not for sale') : t('from {{amount}} a month', { amount: formatCents(pro) })}
          {oldPro?.old_price_cents && (
            <Text size="xs" c="dimmed" td="line-through">
              {formatCents(oldPro.old_price_cents)}
            </Text>
          )}
        </>
      ),
      action: () => (
        <Button component={Link} to={paths.subscriptionCheckout('nuitrack', 'pro')} state={state('pro')} disabled={pro === null}>
          {t('Buy Pro')}
        </Button>
      ),
    },
    {
      key: 'ai',
      title: t('AI'),
      price: ai === null ? t('Not for sale') : t('from {{amount}} a month', { amount: formatCents(ai) }),
      action: () => (
        <Button component={Link} to={paths.subscriptionCheckout('nuitrack', 'ai')} state={state('ai')} disabled={ai === null}>
          {t('Buy AI')}
        </Button>
      ),
    },
  ]

  return (
    <>
      {/* from 720 px up, the plans side by side; below, a card per plan with its button under its price */}
      <Box visibleFrom="sm">
        <ComparisonTable plans={plans} />
      </Box>
      <Box hiddenFrom="sm">
        <PlanCards plans={plans} />
      </Box>
    </>
  )
}

interface Plan {
  key: 'trial' | 'pro' | 'ai'
  title: string
  price: ReactNode
  /** the plan's button; the table and the cards are both in the page (one shown), so a test id says which */
  action: (where: 'table' | 'cards') => ReactNode
}

function ComparisonTable({ plans }: { plans: Plan[] }) {
  const { t } = useTranslation()
  return (
    <TableScroll minWidth={640}>
      <Table withTableBorder withColumnBorders verticalSpacing="sm" bg="var(--mantine-color-body)" aria-label={t('Nuitrack licenses compared')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="34%">
              <VisuallyHidden>{t('Feature')}</VisuallyHidden>
            </Table.Th>
            {plans.map((p) => (
              <Table.Th key={p.key} ta="center">
                {p.title}
              </Table.Th>
            ))}
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('Price')}</Table.Th>
            {plans.map((p) => (
              <Table.Td key={p.key} ta="center">
                {p.price}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Thead>
        {SECTIONS.map((section) => (
          <Table.Tbody key={section.title}>
            <Table.Tr>
              <Table.Th colSpan={4} scope="colgroup" bg="var(--mantine-color-gray-light)">
                {t(section.title)}
              </Table.Th>
            </Table.Tr>
            {section.rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Th scope="row" fw={400}>
                  {t(row.label)}
                </Table.Th>
                {plans.map((p) => (
                  <Table.Td key={p.key} ta="center">
                    <CellValue value={row[p.key]} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        ))}
        <Table.Tfoot>
          <Table.Tr>
            <Table.Td />
            {plans.map((p) => (
              <Table.Td key={p.key} ta="center">
                {p.action('table')}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </TableScroll>
  )
}

/** Below 720 px: one card per plan, its price and button first, then what it gives, section by section. */
function PlanCards({ plans }: { plans: Plan[] }) {
  const { t } = useTranslation()
  return (
    <Stack gap="md" component="ul" aria-label={t('Nuitrack licenses compared')} className={classes.plans} data-testid="plan-cards">
      {plans.map((p) => (
        <Card key={p.key} withBorder padding="md" component="li" aria-labelledby={`plan-${p.key}`} data-testid={`plan-card-${p.key}`}>
          <Title order={3} size="h4" id={`plan-${p.key}`}>
            {p.title}
          </Title>
          <Text fw={600} mt={4} component="div">
            {p.price}
          </Text>
          <div className={classes.action}>{p.action('cards')}</div>
          {SECTIONS.map((section) => (
            <div key={section.title}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} mt="md" mb={4}>
                {t(section.title)}
              </Text>
              <dl className={classes.features}>
                {section.rows.map((row) => (
                  <div key={row.label} className={classes.feature}>
                    <dt>{t(row.label)}</dt>
                    <dd>
                      <CellValue value={row[p.key]} />
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </Card>
      ))}
    </Stack>
  )
}
