import { useState } from 'react'
import { Alert, Anchor, Button, Card, Group, SegmentedControl, Stack, Table, Tabs, Text, Title, VisuallyHidden } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { PLATFORM_TITLES, STATE_LABELS, SUPPORT_SERVICE, platformHasBasket, productTitle, type LicenseState, type Platform } from '@portal/domain'
import { StatusBadge, expiryLabel } from '../../../components/LicenseBits.tsx'
import { paths, supportUrl } from '../../../config/paths.ts'
import classes from './dashboard.module.css'
import { FIRST_PAGE, PAGE_STEP, PRODUCT_FILTERS, STATUS_TABS, productMatches, rowIsTrial, rowProduct, type Row } from './filters.ts'

const STATUS_VALUES = (platform: Platform) => ['all', ...STATUS_TABS(platform)] as const

/** The empty table says where a first license comes from, true to what the screen shows. */
function NoLicenses({
  platform,
  trialOffered,
  firstStepsShown,
  onShowFirstSteps,
}: {
  platform: Platform
  trialOffered: boolean
  firstStepsShown: boolean
  onShowFirstSteps: () => void
}) {
  const { t } = useTranslation()
  // the link's words sit inside each sentence, so a translation can move them
  const components = {
    support: <Anchor href={supportUrl(SUPPORT_SERVICE[platform])} target="_blank" rel="noopener noreferrer" inherit />,
    basket: <Anchor component={Link} to={paths.basket(platform)} inherit />,
    hidden: <VisuallyHidden />,
  }
  const link = '<support>contact support<hidden> (opens in a new tab)</hidden></support>'
  const text = platformHasBasket(platform) ? (
    trialOffered ? (
      firstStepsShown ? (
        <Trans
          defaults={`Licenses you get appear here. Start a trial in the first steps above or buy one in the <basket>basket</basket>; for anything else, ${link}.`}
          components={components}
        />
      ) : (
        <Trans
          defaults={`Licenses you get appear here. Start a free trial from the first steps or buy one in the <basket>basket</basket>; for anything else, ${link}.`}
          components={components}
        />
      )
    ) : (
      <Trans defaults={`Licenses you get appear here. Buy one in the <basket>basket</basket>; for a custom license, ${link}.`} components={components} />
    )
  ) : trialOffered ? (
    firstStepsShown ? (
      <Trans defaults={`Licenses you get appear here. Start with a trial in the first steps above, or ${link} to buy.`} components={components} />
    ) : (
      <Trans defaults={`Licenses you get appear here. Start a free trial from the first steps, or ${link} to buy.`} components={components} />
    )
  ) : (
    <Trans
      defaults={`Licenses you get appear here. {{platform}} licenses are issued by our sales team: ${link} to get one.`}
      values={{ platform: PLATFORM_TITLES[platform] }}
      components={components}
    />
  )
  return (
    <Alert color="gray" title={t('You have no licenses yet')}>
      {firstStepsShown ? (
        text
      ) : (
        <Stack gap="xs" align="flex-start">
          <span>{text}</span>
          <Button variant="light" size="xs" onClick={onShowFirstSteps}>
            {t('Show the first steps')}
          </Button>
        </Stack>
      )}
    </Alert>
  )
}

/** The license table of a platform: status tabs, product filter, pages of rows. */
export function LicenseTable({
  platform,
  rows,
  trialOffered,
  firstStepsShown,
  onShowFirstSteps,
}: {
  platform: Platform
  rows: Row[]
  trialOffered: boolean
  firstStepsShown: boolean
  onShowFirstSteps: () => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [status, setStatus] = useState<'all' | LicenseState>('all')
  const [product, setProduct] = useState('all')
  const [shown, setShown] = useState(FIRST_PAGE)
  const productFilters = PRODUCT_FILTERS[platform]

  const byProduct = rows.filter((r) => productMatches(product, rowProduct(r), rowIsTrial(r)))
  const counts = Object.fromEntries(STATUS_TABS(platform).map((s) => [s, byProduct.filter((r) => r.status === s).length]))
  const filtered = status === 'all' ? byProduct : byProduct.filter((r) => r.status === status)
  const visible = filtered.slice(0, shown)
  const reset = () => setShown(FIRST_PAGE)
  const hrefOf = (r: Row) =>
    r.kind === 'license' ? `${pathname}${r.license.id}/info/` : `${pathname}${r.group.id}/pre-info/${r.status === 'holded' ? '?holded' : ''}`

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="licenses-title">
      <Title order={2} size="h4" mb="sm" id="licenses-title">
        {t('Licenses')}
      </Title>
      <Tabs
        value={status}
        onChange={(v) => {
          setStatus((v as typeof status) ?? 'all')
          reset()
        }}
        mb="sm"
      >
        <Tabs.List>
          <Tabs.Tab value="all">{t('All ({{n}})', { n: byProduct.length })}</Tabs.Tab>
          {STATUS_TABS(platform).map((s) => (
            <Tabs.Tab key={s} value={s} disabled={counts[s] === 0}>
              {t(STATE_LABELS[s])} ({counts[s]})
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {STATUS_VALUES(platform).map((value) => (
          <Tabs.Panel key={value} value={value}>
            {status === value && (
              <>
                {productFilters && (
                  <SegmentedControl
                    mb="md"
                    aria-label={t('Product')}
                    value={product}
                    onChange={(v) => {
                      setProduct(v)
                      setStatus('all')
                      reset()
                    }}
                    data={productFilters.map((f) => ({ ...f, label: t(f.label) }))}
                  />
                )}
                {rows.length === 0 ? (
                  <NoLicenses platform={platform} trialOffered={trialOffered} firstStepsShown={firstStepsShown} onShowFirstSteps={onShowFirstSteps} />
                ) : (
                  <>
                    <Table.ScrollContainer minWidth={720} type="native" data-testid="license-table-scroll">
                      <Table highlightOnHover verticalSpacing="sm" className={classes.table}>
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
                          {visible.map((r) => {
                            const title = r.kind === 'license' ? r.license.title : t('{{title}}: {{n}} to generate', { title: r.group.title, n: r.group.limit })
                            return (
                              <Table.Tr
                                key={r.kind === 'license' ? `l${r.license.id}` : `g${r.group.id}`}
                                style={{ cursor: 'pointer' }}
                                onClick={() => navigate(hrefOf(r))}
                                data-testid="license-row"
                              >
                                <Table.Td className={classes.title}>
                                  {/* three lines at most; the rest on hover (title) and for screen readers (the link's text) */}
                                  <Anchor component={Link} to={hrefOf(r)} onClick={(e) => e.stopPropagation()} title={title} lineClamp={3}>
                                    {title}
                                  </Anchor>
                                </Table.Td>
                                <Table.Td className={classes.nowrap}>{productTitle(rowProduct(r))}</Table.Td>
                                <Table.Td className={classes.nowrap}>
                                  <StatusBadge status={r.status} />
                                </Table.Td>
                                <Table.Td className={classes.nowrap}>
                                  <Text size="sm" ff="monospace">
                                    {r.kind === 'license' ? r.license.token : '—'}
                                  </Text>
                                </Table.Td>
                                <Table.Td className={classes.nowrap}>{r.kind === 'license' ? expiryLabel(r.license, t) : '—'}</Table.Td>
                              </Table.Tr>
                            )
                          })}
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
                      </Table>
                    </Table.ScrollContainer>
                    <Group justify="space-between" mt="md">
                      <Text size="sm" c="dimmed" aria-live="polite">
                        {t('Showing {{visible}} of {{total}}', { visible: visible.length, total: filtered.length })}
                      </Text>
                      {filtered.length > shown && (
                        <Button variant="light" onClick={() => setShown((n) => n + PAGE_STEP)}>
                          {t('Show {{n}} more', { n: Math.min(PAGE_STEP, filtered.length - shown) })}
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
