import { Badge } from '@mantine/core'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { STATE_LABELS, expiryText, type LicenseState, type LicenseView } from '@portal/domain'
import { formatDate } from '../lib/format.ts'

const COLORS: Record<LicenseState, string> = { new: 'blue', active: 'green', suspended: 'red', holded: 'orange', paused: 'yellow' }

/**
 * The state badge. Mantine's badge label ellipsizes and, as a flex item, may shrink to nothing in a
 * squeezed table cell ("NE…"): a state is one or two words, so it keeps its full width instead.
 */
export function StatusBadge({ status }: { status: LicenseState }) {
  const { t } = useTranslation()
  return (
    <Badge
      color={COLORS[status]}
      variant="light"
      c="dark.8"
      data-testid="status-badge"
      styles={{ root: { minWidth: 'max-content', flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {t(STATE_LABELS[status])}
    </Badge>
  )
}

/** What "Expires" says: the date, "Renews monthly/yearly/every 3 months" for a subscription without one, else "Never". */
export function expiryLabel(license: Pick<LicenseView, 'expire_date' | 'next_payment' | 'is_subscription' | 'lifetime' | 'config'>, t: TFunction): string {
  const e = expiryText(license)
  if (e.kind === 'date') return formatDate(e.date)
  if (e.kind === 'renews') return e.months === 12 ? t('Renews yearly') : e.months === 1 ? t('Renews monthly') : t('Renews every {{n}} months', { n: e.months })
  return t('Never')
}

/** A term of `months` (termMonths): "Monthly", "Annual", "3 months". */
export const termText = (months: number, t: TFunction) => (months === 1 ? t('Monthly') : months === 12 ? t('Annual') : t('{{n}} months', { n: months }))

/** A price per term (termMonths): "$50.00 a month", "$150.00 every 3 months", "$600.00 a year". */
export const pricePerTermText = (price: string, months: number, t: TFunction) =>
  months === 1 ? t('{{price}} a month', { price }) : months === 12 ? t('{{price}} a year', { price }) : t('{{price}} every {{n}} months', { price, n: months })
