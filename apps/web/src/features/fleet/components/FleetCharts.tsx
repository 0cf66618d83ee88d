import type { ReactNode } from 'react'
import { BarChart } from '@mantine/charts'
import { Table } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import {
  FLEET_ACTIVATION_DAYS,
  FLEET_EXPIRY_DAYS,
  FLEET_SPEND_MONTHS,
  PLATFORMS,
  PLATFORM_TITLES,
  STATE_LABELS,
  formatCents,
  type FleetView,
  type Platform,
} from '@portal/domain'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { ChartCard } from './ChartCard.tsx'

/** A color per platform, dark enough for 3:1 against the card (graphics, WCAG 1.4.11). */
const PLATFORM_COLORS: Record<Platform, string> = {
  nuitrack: 'blue.7',
  face: 'teal.8',
  'face-machine': 'grape.7',
  'nuitrack-analytics': 'orange.8',
}
const series = PLATFORMS.map((p) => ({ name: p, label: PLATFORM_TITLES[p], color: PLATFORM_COLORS[p] }))
/** The chart is for the eye: no keyboard layer of its own (the table beside it carries the figures). */
/** a count's axis: whole numbers only (recharts would tick 0.25, 0.5 for small counts) */
const counts = { allowDecimals: false }
const drawOnly = { accessibilityLayer: false }
const CHART_HEIGHT = 260

/**
 * A chart's figures: a CardTable when shown; out of sight, a plain table (a scrolling box there would
 * be a scrollable region no keyboard can reach).
 */
function FleetTable({ minWidth, hidden, children }: { minWidth: number; hidden: boolean; children: ReactNode }) {
  return hidden ? (
    <Table>{children}</Table>
  ) : (
    <CardTable minWidth={minWidth} striped>
      {children}
    </CardTable>
  )
}

const sumOf = (row: Record<Platform, number>) => PLATFORMS.reduce((s, p) => s + row[p], 0)

/** A count of licenses per status or week (a chart's table alternative). */
function CountTable(props: { hidden: boolean; first: string; rows: { key: string; label: string; count: number }[] }) {
  const { t } = useTranslation()
  return (
    <FleetTable minWidth={320} hidden={props.hidden}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{props.first}</Table.Th>
          <Table.Th scope="col" className={cardCell.end}>
            {t('Licenses')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th scope="row" className={cardCell.lead} data-label={props.first}>
              {row.label}
            </Table.Th>
            <Table.Td className={cardCell.end} data-label={t('Licenses')}>
              {row.count}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </FleetTable>
  )
}

/** A figure per platform and their total, one row per day or month (a chart's table alternative). */
function PlatformTable(props: {
  minWidth: number
  hidden: boolean
  caption?: string
  first: string
  rows: { key: string; label: string; values: Record<Platform, number> }[]
  format: (n: number) => string
}) {
  const { t } = useTranslation()
  return (
    <FleetTable minWidth={props.minWidth} hidden={props.hidden}>
      {props.caption ? <Table.Caption>{props.caption}</Table.Caption> : null}
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{props.first}</Table.Th>
          {PLATFORMS.map((p) => (
            <Table.Th key={p} scope="col" className={cardCell.end}>
              {PLATFORM_TITLES[p]}
            </Table.Th>
          ))}
          <Table.Th scope="col" className={cardCell.end}>
            {t('Total')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th scope="row" className={cardCell.lead} data-label={props.first}>
              {row.label}
            </Table.Th>
            {PLATFORMS.map((p) => (
              <Table.Td key={p} className={cardCell.end} data-label={PLATFORM_TITLES[p]}>
                {props.format(row.values[p])}
              </Table.Td>
            ))}
            <Table.Td className={cardCell.end} data-label={t('Total')}>
              {props.format(sumOf(row.values))}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </FleetTable>
  )
}

/** Dates of the view are UTC calendar days: shown as such, in the reader's language. */
function useDates() {
  const { i18n } = useTranslation()
  const locale = i18n.language || 'en'
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' })
  return {
    day: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
    month: (ym: string) => month.format(new Date(`${ym}-01T00:00:00Z`)),
  }
}

export function ActivationsChart({ days }: { days: FleetView['activations'] }) {
  const { t } = useTranslation()
  const dates = useDates()
  const total = days.reduce((s, d) => s + sumOf(d), 0)
  const active = days.filter((d) => sumOf(d) > 0)
  const data = days.map((d) => ({ ...d, label: dates.day(d.day) }))
  return (
    <ChartCard
      testId="fleet-activations"
      title={t('Devices activated per day')}
      summary={t('Device activations in the last {{days}} days: {{count}}', { count: total, days: FLEET_ACTIVATION_DAYS })}
      empty={total === 0 ? t('No device was activated in the last {{days}} days.', { days: FLEET_ACTIVATION_DAYS }) : null}
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="label"
          type="stacked"
          series={series}
          withLegend
          barChartProps={drawOnly}
          tickLine="y"
          yAxisProps={counts}
        />
      }
      table={(hidden) => (
        <PlatformTable
          minWidth={640}
          hidden={hidden}
          caption={t('Days without activations are left out.')}
          first={t('Day')}
          rows={active.map((d) => ({ key: d.day, label: dates.day(d.day), values: d }))}
          format={String}
        />
      )}
    />
  )
}

export function StatusChart({ statuses }: { statuses: FleetView['license_status'] }) {
  const { t } = useTranslation()
  const total = statuses.reduce((s, r) => s + r.count, 0)
  const data = statuses.map((s) => ({ status: t(STATE_LABELS[s.status]), licenses: s.count }))
  return (
    <ChartCard
      testId="fleet-status"
      title={t('Licenses by status')}
      summary={t('Licenses: {{count}}', { count: total })}
      empty={total === 0 ? t('You have no licenses yet.') : null}
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="status"
          series={[{ name: 'licenses', label: t('Licenses'), color: 'blue.7' }]}
          barChartProps={drawOnly}
          tickLine="y"
          yAxisProps={counts}
          withBarValueLabel
        />
      }
      table={(hidden) => (
        <CountTable hidden={hidden} first={t('Status')} rows={statuses.map((s) => ({ key: s.status, label: t(STATE_LABELS[s.status]), count: s.count }))} />
      )}
    />
  )
}

export function ExpiringChart({ weeks }: { weeks: FleetView['expiring'] }) {
  const { t } = useTranslation()
  const dates = useDates()
  const total = weeks.reduce((s, w) => s + w.count, 0)
  const data = weeks.map((w) => ({ week: dates.day(w.week), licenses: w.count }))
  return (
    <ChartCard
      testId="fleet-expiring"
      title={t('Licenses expiring, by week')}
      summary={t('Expiring in the next {{days}} days: {{count}}', { count: total, days: FLEET_EXPIRY_DAYS })}
      empty={total === 0 ? t('No license expires in the next {{days}} days.', { days: FLEET_EXPIRY_DAYS }) : null}
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="week"
          series={[{ name: 'licenses', label: t('Licenses'), color: 'orange.8' }]}
          barChartProps={drawOnly}
          tickLine="y"
          yAxisProps={counts}
        />
      }
      table={(hidden) => (
        <CountTable hidden={hidden} first={t('Week of')} rows={weeks.map((w) => ({ key: w.week, label: dates.day(w.week), count: w.count }))} />
      )}
    />
  )
}

export function SpendChart({ months }: { months: FleetView['spend'] }) {
  const { t } = useTranslation()
  const dates = useDates()
  const total = months.reduce((s, m) => s + sumOf(m), 0)
  const nothing = months.every((m) => PLATFORMS.every((p) => m[p] === 0))
  // the chart's axis in dollars; the table keeps every cent
  const data = months.map((m) => ({ label: dates.month(m.month), ...Object.fromEntries(PLATFORMS.map((p) => [p, m[p] / 100])) }))
  return (
    <ChartCard
      testId="fleet-spend"
      title={t('Spend per month')}
      summary={t('Spent in the last {{months}} months, refunds deducted: {{amount}}', { amount: formatCents(total), months: FLEET_SPEND_MONTHS })}
      empty={nothing ? t('Nothing was bought in the last {{months}} months.', { months: FLEET_SPEND_MONTHS }) : null}
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="label"
          type="stacked"
          series={series}
          withLegend
          barChartProps={drawOnly}
          tickLine="y"
          valueFormatter={(v) => formatCents(Math.round(v * 100))}
        />
      }
      table={(hidden) => (
        <PlatformTable
          minWidth={720}
          hidden={hidden}
          first={t('Month')}
          rows={months.map((m) => ({ key: m.month, label: dates.month(m.month), values: m }))}
          format={formatCents}
        />
      )}
    />
  )
}
