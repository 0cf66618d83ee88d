import { useMemo, useState } from 'react'
import { Button, Group, Radio, Stack, Table, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useParams } from 'react-router'
import { FACE_ALL_IN_ONE_DEFAULT_MONTHS, PLATFORM_TITLES, unitPriceCents, type OsType, type Platform, type SaleEntry } from '@portal/domain'
import { formatCents, formatCount } from '../../../lib/format.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { paths } from '../../../config/paths.ts'
import { useBasketData, type ShownPriceRow } from '../api/prices.ts'
import { basketStore, useBasket } from '../components/basket-store.ts'
import {
  annualOffered,
  basketEntriesOf,
  configOf,
  isSubscription,
  isYearly,
  osTypesOf,
  priceLines,
  type CheckoutState,
  type ShownLine,
} from '../components/catalogue.ts'
import { BackLink, Checkout, OsChoice, QuantityStepper } from '../components/Checkout.tsx'
import classes from '../components/checkout.module.css'

/** /app/{platform}/basket/checkout/: the basket's lines with a stepper each (nuitrack, face), or a radio choice (analytics). */
export function CheckoutRoute() {
  const { t } = useTranslation()
  const platform = useParams().platform as Platform
  const data = useBasketData()
  return (
    <>
      <BackLink to={paths.licenseSelection(platform)}>{t('Back to license selection')}</BackLink>
      <PageTitle>{t('Checkout · {{platform}}', { platform: PLATFORM_TITLES[platform] })}</PageTitle>
      {platform === 'nuitrack-analytics' ? (
        <RadioCheckout platform={platform} entries={basketEntriesOf(platform)} data={data} initial={null} />
      ) : (
        <StepperCheckout platform={platform} data={data} />
      )}
    </>
  )
}

/** The entries the subscriptions checkout offers for a license type (pro, ai, all-in-one). */
function subscriptionEntries(platform: Platform, licenseType: string, rows: readonly ShownPriceRow[] | null): SaleEntry[] {
  const annual = rows ? annualOffered(platform, rows) : false
  return basketEntriesOf(platform).filter((e) => e.license_type === licenseType && (!isYearly(e) || annual))
}

/** /app/{platform}/basket/checkout/subscriptions/{licenseType}/: a radio choice of the license type's terms. */
export function SubscriptionCheckoutRoute() {
  const { t } = useTranslation()
  const { platform, licenseType = '' } = useParams() as { platform: Platform; licenseType: string }
  const state = (useLocation().state ?? {}) as CheckoutState
  const data = useBasketData()
  const entries = subscriptionEntries(platform, licenseType, data?.rows ?? null)
  if (basketEntriesOf(platform).every((e) => e.license_type !== licenseType)) return <Navigate to={paths.licenseSelection(platform)} replace />
  // face all-in-one: 12 months unless the customer chose otherwise
  const initial = entries.find((e) => e.months === FACE_ALL_IN_ONE_DEFAULT_MONTHS) ?? null
  return (
    <>
      <BackLink to={paths.licenseSelection(platform)}>{t('Back to license selection')}</BackLink>
      <PageTitle>{t('Checkout · {{platform}}', { platform: PLATFORM_TITLES[platform] })}</PageTitle>
      <RadioCheckout key={`${licenseType}-${state.addLicenseType ?? ''}`} platform={platform} entries={entries} data={data} initial={initial} />
    </>
  )
}

function RadioCheckout({
  platform,
  entries,
  data,
  initial,
}: {
  platform: Platform
  entries: SaleEntry[]
  data: ReturnType<typeof useBasketData>
  initial: SaleEntry | null
}) {
  const { t } = useTranslation()
  const [chosen, setChosen] = useState<string | null>(null)
  const [os, setOs] = useState<OsType | null>(null)
  const rows = data?.rows ?? []
  const forSale = entries.filter((e) => unitPriceCents(e, rows) !== null)
  const current = forSale.find((e) => e.id === chosen) ?? forSale.find((e) => e.id === initial?.id) ?? forSale[0] ?? null
  const config = current ? { ...configOf(current), ...(os !== null && osTypesOf(current.product).includes(os) ? { os_type: os } : {}) } : null
  const lines: ShownLine[] = current && config ? priceLines([{ key: current.id, config, count: 1 }], rows) : []
  const order = (
    <Radio.Group value={current?.id ?? null} onChange={setChosen} label={t('Choose your plan')}>
      <Stack gap="sm" mt="xs">
        {forSale.map((e) => (
          <Radio key={e.id} value={e.id} label={t(e.title)} description={priceLabel(t, e, rows)} />
        ))}
        {current && (
          <Group gap="xs" mt="xs">
            <OsChoice label={t('Operating system')} product={current.product} value={os} onChange={setOs} />
          </Group>
        )}
        {data && forSale.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('Nothing of this kind is for sale right now.')}
          </Text>
        )}
      </Stack>
    </Radio.Group>
  )
  return <Checkout platform={platform} lines={lines} order={order} balance={data?.balanceCents ?? 0} loading={!data} />
}

const NO_ROWS: ShownPriceRow[] = []

type T = ReturnType<typeof useTranslation>['t']
const priceLabel = (t: T, e: SaleEntry, rows: readonly ShownPriceRow[]) => {
  const unit = unitPriceCents(e, rows)
  if (unit === null) return t('Not for sale')
  const amount = formatCents(unit)
  if (!isSubscription(e.product)) return t('{{amount}} once', { amount })
  if (e.months && e.months > 1) return t('{{amount}} for {{months}} months', { amount, months: e.months })
  return isYearly(e) ? t('{{amount}} a year', { amount }) : t('{{amount}} a month', { amount })
}

/** Nuitrack and Face SDK: the basket's lines, each with its stepper, and the products still to add. */
function StepperCheckout({ platform, data }: { platform: Platform; data: ReturnType<typeof useBasketData> }) {
  const { t } = useTranslation()
  const map = useBasket(platform)
  const rows = data?.rows ?? NO_ROWS
  const lines = useMemo(() => priceLines(Object.values(map), rows), [map, rows])
  const annual = annualOffered(platform, rows)
  const addable = basketEntriesOf(platform).filter((e) => !map[e.id] && (!isYearly(e) || annual) && unitPriceCents(e, rows) !== null)

  const order = (
    <Stack gap="md">
      {lines.length === 0 ? (
        <Text c="dimmed">{t('Your basket is empty: add a product below.')}</Text>
      ) : (
        <CardTable minWidth={420} verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Product')}</Table.Th>
              <Table.Th>{t('Price')}</Table.Th>
              <Table.Th>{t('Quantity')}</Table.Th>
              <Table.Th className={cardCell.end}>{t('Amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((l) => (
              <Table.Tr key={l.key}>
                <Table.Td className={cardCell.lead}>
                  <Text size="sm" fw={500}>
                    {t(l.title)}
                  </Text>
                  {l.config.license_content && <ComponentsNote content={l.config.license_content} />}
                  <OsChoice
                    label={t('Operating system of {{product}}', { product: t(l.title) })}
                    product={l.config.product}
                    value={l.config.os_type}
                    onChange={(os) => basketStore.set(platform, { ...l.config, os_type: os }, l.count)}
                  />
                </Table.Td>
                <Table.Td data-label={t('Price')}>{l.unit_cents === null ? t('Not for sale') : formatCents(l.unit_cents)}</Table.Td>
                <Table.Td data-label={t('Quantity')}>
                  <QuantityStepper
                    label={t('Quantity of {{product}}', { product: t(l.title) })}
                    value={l.count}
                    onChange={(n) => basketStore.set(platform, l.config, n)}
                  />
                </Table.Td>
                <Table.Td className={cardCell.end} data-label={t('Amount')}>
                  {formatCents(l.amount_cents)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </CardTable>
      )}
      {addable.length > 0 && (
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('Add a product')}
          </Text>
          <Group gap="xs">
            {addable.map((e) => (
              <Button
                key={e.id}
                variant="light"
                size="xs"
                classNames={{ root: classes.addRoot, label: classes.addLabel }}
                onClick={() => basketStore.add(platform, configOf(e))}
              >
                {t('Add {{product}} ({{price}})', { product: t(e.title), price: priceLabel(t, e, rows) })}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
    </Stack>
  )
  return <Checkout platform={platform} lines={lines} order={order} balance={data?.balanceCents ?? 0} loading={!data} />
}

function ComponentsNote({ content }: { content: Record<string, number> }) {
  const { t } = useTranslation()
  const names = Object.entries(content)
    .filter(([k, v]) => k !== 'database' && v > 0)
    .map(([k]) => k)
  if (names.length === 0) return null
  return (
    <Text size="xs" c="dimmed">
      {names.length === 1 ? t('1 component') : t('{{n}} components', { n: names.length })}
      {content.database ? ` · ${t('database of {{size}} faces', { size: formatCount(content.database) })}` : ''}
    </Text>
  )
}
