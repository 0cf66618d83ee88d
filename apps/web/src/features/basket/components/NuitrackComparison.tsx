import { useState } from 'react'
import { Button, Table, Text, VisuallyHidden } from '@mantine/core'
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

/** Section 2: what Trial, Pro and AI give, side by side. */
const SECTIONS: Section[] = [
  {
    title: 'License',
    rows: [
      { label: 'Session limit', trial: '3 minutes', pro: 'Unlimited', ai: 'Unlimited' },
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
    ],
  },
  {
    title: 'Features',
    rows: [
      { label: 'Skeleton tracking', trial: true, pro: true, ai: true },
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

  return (
    <Table.ScrollContainer minWidth={640}>
      <Table withTableBorder withColumnBorders verticalSpacing="sm" bg="var(--mantine-color-body)" aria-label={t('Nuitrack licenses compared')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="34%">
              <VisuallyHidden>{t('Feature')}</VisuallyHidden>
            </Table.Th>
            <Table.Th ta="center">{t('Trial')}</Table.Th>
            <Table.Th ta="center">{t('Pro')}</Table.Th>
            <Table.Th ta="center">{t('AI')}</Table.Th>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('Price')}</Table.Th>
            <Table.Td ta="center">{t('Free')}</Table.Td>
            <Table.Td ta="center">
              {pro === null ? t('Not for sale') : t('from {{amount}} a month', { amount: formatCents(pro) })}
              {oldPro?.old_price_cents && (
                <Text size="xs" c="dimmed" td="line-through">
                  {formatCents(oldPro.old_price_cents)}
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="center">{ai === null ? t('Not for sale') : t('from {{amount}} a month', { amount: formatCents(ai) })}</Table.Td>
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
                <Table.Td ta="center">
                  <CellValue value={row.trial} />
                </Table.Td>
                <Table.Td ta="center">
                  <CellValue value={row.pro} />
                </Table.Td>
                <Table.Td ta="center">
                  <CellValue value={row.ai} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        ))}
        <Table.Tfoot>
          <Table.Tr>
            <Table.Td />
            <Table.Td ta="center">
              {profile && !trial ? (
                // this is the basket: Pro and AI are bought from the buttons beside it
                <Text size="sm" data-testid="trial-used">
                  {t('You have used the free trial: buy Pro or AI.')}
                </Text>
              ) : (
                <Button variant="default" onClick={() => void start()} loading={starting} disabled={!trial}>
                  {t('Start the free trial')}
                </Button>
              )}
            </Table.Td>
            <Table.Td ta="center">
              <Button component={Link} to={paths.subscriptionCheckout('nuitrack', 'pro')} state={state('pro')} disabled={pro === null}>
                {t('Buy Pro')}
              </Button>
            </Table.Td>
            <Table.Td ta="center">
              <Button component={Link} to={paths.subscriptionCheckout('nuitrack', 'ai')} state={state('ai')} disabled={ai === null}>
                {t('Buy AI')}
              </Button>
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  )
}
