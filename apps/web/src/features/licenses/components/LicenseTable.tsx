import { lazy, memo } from 'react'
import { Anchor, Button, Card, Group, SegmentedControl, Table, Tabs, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { STATE_LABELS, productTitle, type LicenseCounts, type LicenseState, type LicenseView, type Platform } from '@portal/domain'
import { PAGE_STEP } from '../../../api/licenses.ts'
import { StatusBadge, expiryLabel } from '../../../components/LicenseBits.tsx'
import classes from './dashboard.module.css'
import { PRODUCT_FILTERS, STATUS_TABS, productMatches, rowIsTrial, rowProduct, type Row } from './filters.ts'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'

// a client with licenses never sees it: it suspends the dashboard's boundary (its loading state) while it loads
const NoLicenses = lazy(() => import('./NoLicenses.tsx').then((m) => ({ default: m.NoLicenses })))

const STATUS_VALUES = (platform: Platform) => ['all', ...STATUS_TABS(platform)] as const

/** Whether two rows show the same thing: the same license or group object (the query cache keeps them while they do not change), status and link. */
const sameRow = (a: { row: Row; href: string }, b: { row: Row; href: string }) =>
  a.href === b.href &&
  a.row.status === b.row.status &&
  (a.row.kind === 'license' ? b.row.kind === 'license' && a.row.license === b.row.license : b.row.kind === 'slot' && a.row.group === b.row.group)

/** One row of the table, drawn again only when its license or group changes: "Show 50 more" draws the new rows alone. */
const LicenseRow = memo(function LicenseRow({ row: r, href }: { row: Row; href: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const title = r.kind === 'license' ? r.license.title : t('{{title}}: {{n}} to generate', { title: r.group.title, n: r.group.limit })
  return (
    <Table.Tr style={{ cursor: 'pointer' }} onClick={() => navigate(href)} data-testid="license-row">
      <Table.Td className={`${classes.title} ${cardCell.lead}`}>
        {/* three lines at most; the rest on hover (title) and for screen readers (the link's text) */}
        <Anchor component={Link} to={href} onClick={(e) => e.stopPropagation()} title={title} lineClamp={3}>
          {title}
        </Anchor>
      </Table.Td>
      <Table.Td className={classes.nowrap} data-label={t('Product')}>
        {productTitle(rowProduct(r))}
      </Table.Td>
      <Table.Td className={classes.nowrap} data-label={t('Status')}>
        <StatusBadge status={r.status} />
      </Table.Td>
      <Table.Td className={classes.nowrap} data-label={t('Key')}>
        <Text size="sm" ff="monospace">
          {r.kind === 'license' ? r.license.token : '—'}
        </Text>
      </Table.Td>
      <Table.Td className={classes.nowrap} data-label={t('Expires')}>
        {r.kind === 'license' ? expiryLabel(r.license, t) : '—'}
      </Table.Td>
    </Table.Tr>
  )
}, sameRow)

/**
 * The license table of a platform: status tabs, product filter, pages of rows. The licenses come a
 * page at a time from the server, filtered there, with the counts of the tabs; the group slots
 * (licenses not generated yet) come from the groups and go first, filtered here by the same rules.
 */
export function LicenseTable({
  platform,
  slots,
  licenses,
  total,
  counts,
  status,
  product,
  shown,
  loadingMore,
  onChoose,
  onShowMore,
  trialOffered,
  firstStepsShown,
  onShowFirstSteps,
}: {
  platform: Platform
  /** the platform's group slots (every filter) */
  slots: Row[]
  /** the licenses read so far under the filter, in order */
  licenses: LicenseView[]
  /** how many licenses match the filter */
  total: number
  counts: LicenseCounts
  status: 'all' | LicenseState
  product: string
  shown: number
  loadingMore: boolean
  onChoose: (status: 'all' | LicenseState, product: string) => void
  /** shows 50 rows more; the licenses the table then needs */
  onShowMore: (licensesNeeded: number) => void
  trialOffered: boolean
  firstStepsShown: boolean
  onShowFirstSteps: () => void
}) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const productFilters = PRODUCT_FILTERS[platform]

  const slotsByProduct = slots.filter((r) => productMatches(product, rowProduct(r), rowIsTrial(r)))
  const tabCounts = Object.fromEntries(STATUS_TABS(platform).map((s) => [s, counts.status[s] + slotsByProduct.filter((r) => r.status === s).length]))
  const allCount = (counts.product[product] ?? 0) + slotsByProduct.length
  const filteredSlots = status === 'all' ? slotsByProduct : slotsByProduct.filter((r) => r.status === status)
  const rows: Row[] = [...filteredSlots, ...licenses.map((l): Row => ({ kind: 'license', license: l, status: l.state }))]
  const matching = filteredSlots.length + total
  const visible = rows.slice(0, shown)
  const empty = slots.length === 0 && (counts.product.all ?? 0) === 0
  const hrefOf = (r: Row) =>
    r.kind === 'license' ? `${pathname}${r.license.id}/info/` : `${pathname}${r.group.id}/pre-info/${r.status === 'holded' ? '?holded' : ''}`

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="licenses-title">
      <Title order={2} size="h4" mb="sm" id="licenses-title">
        {t('Licenses')}
      </Title>
      <Tabs value={status} onChange={(v) => onChoose((v as typeof status | null) ?? 'all', product)} mb="sm">
        <Tabs.List>
          <Tabs.Tab value="all">{t('All ({{n}})', { n: allCount })}</Tabs.Tab>
          {STATUS_TABS(platform).map((s) => (
            <Tabs.Tab key={s} value={s} disabled={tabCounts[s] === 0}>
              {t(STATE_LABELS[s])} ({tabCounts[s]})
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {STATUS_VALUES(platform).map((value) => (
          <Tabs.Panel key={value} value={value}>
            {status === value && (
              <>
                {productFilters && (
                  <SegmentedControl
                    className={classes.filter}
                    aria-label={t('Product')}
                    value={product}
                    onChange={(v) => onChoose('all', v)}
                    data={productFilters.map((f) => ({ ...f, label: t(f.label) }))}
                  />
                )}
                {empty ? (
                  <NoLicenses platform={platform} trialOffered={trialOffered} firstStepsShown={firstStepsShown} onShowFirstSteps={onShowFirstSteps} />
                ) : (
                  <>
                    <CardTable
                      minWidth={720}
                      scrollProps={{ 'data-testid': 'license-table-scroll' }}
                      verticalSpacing="sm"
                      highlightOnHover
                      className={classes.table}
                    >
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{t('Title')}</Table.Th>
                          <Table.Th>{t('Product')}</Table.Th>
                          <Table.Th>{t('Status')}</Table.Th>
                          <Table.Th>{t('Key')}</Table.Th>
                          <Table.Th>{t('Expires')}</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {visible.map((r) => (
                          <LicenseRow key={r.kind === 'license' ? `l${r.license.id}` : `g${r.group.id}`} row={r} href={hrefOf(r)} />
                        ))}
                        {visible.length === 0 && (
                          <Table.Tr>
                            <Table.Td colSpan={5}>
                              <Text ta="center" c="dimmed" py="md">
                                {t('No licenses match the filter.')}
                              </Text>
                            </Table.Td>
                          </Table.Tr>
                        )}
                      </Table.Tbody>
                    </CardTable>
                    <Group justify="space-between" mt="md">
                      <Text size="sm" c="dimmed" aria-live="polite">
                        {t('Showing {{visible}} of {{total}}', { visible: visible.length, total: matching })}
                      </Text>
                      {(matching > shown || visible.length < Math.min(shown, matching)) && (
                        <Button
                          variant="light"
                          loading={loadingMore}
                          disabled={visible.length < Math.min(shown, matching)}
                          onClick={() => onShowMore(shown + PAGE_STEP - filteredSlots.length)}
                        >
                          {t('Show {{n}} more', { n: Math.min(PAGE_STEP, matching - shown) })}
                        </Button>
                      )}
                    </Group>
                  </>
                )}
              </>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  )
}
