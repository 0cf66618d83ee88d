import type { ReactNode } from 'react'
import { Button, Card, Center, List, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useNavigate, useParams } from 'react-router'
import { PLATFORM_TITLES, unitPriceCents, type Platform, type SaleEntry } from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { paths } from '../../../config/paths.ts'
import { contactSales } from '../../../lib/contact-sales.ts'
import { useBasketData, type ShownPriceRow } from '../api/prices.ts'
import { basketStore } from '../components/basket-store.ts'
import { basketEntriesOf, configOf, type CheckoutState } from '../components/catalogue.ts'
import { CustomBuilder } from '../components/CustomBuilder.tsx'
import { NuitrackComparison } from '../components/NuitrackComparison.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

/** /app/{platform}/basket/: straight to the license selection. */
export function BasketIndexRoute() {
  const platform = useParams().platform as Platform
  return <Navigate to={paths.licenseSelection(platform)} replace />
}

/** /app/{platform}/basket/license-selection/ (and the face builder over it at …/create/). */
export function LicenseSelectionRoute({ builder = false }: { builder?: boolean }) {
  const { t } = useTranslation()
  const platform = useParams().platform as Platform
  const data = useBasketData()
  if (builder && platform !== 'face') return <Navigate to={paths.licenseSelection(platform)} replace />
  return (
    <>
      <Button component={Link} to={paths.dashboard(platform)} variant="subtle" px={0} mb="sm">
        ← {t('Back to the dashboard')}
      </Button>
      <PageTitle>{t('Buy {{platform}}', { platform: PLATFORM_TITLES[platform] })}</PageTitle>
      {!data ? (
        <Center py="xl">
          <Spinner label={t('Loading prices')} />
        </Center>
      ) : platform === 'nuitrack' ? (
        <NuitrackComparison rows={data.rows} />
      ) : platform === 'face' ? (
        <FacePlans rows={data.rows} />
      ) : (
        <AnalyticsPlans rows={data.rows} />
      )}
      {builder && <CustomBuilder rows={data?.rows ?? []} loading={!data} />}
    </>
  )
}

function PlanCard({ title, price, children, action }: { title: string; price: ReactNode; children: ReactNode; action: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm" h="100%">
        <Title order={2} size="h4">
          {title}
        </Title>
        <div>{price}</div>
        <div style={{ flex: 1 }}>{children}</div>
        {action}
      </Stack>
    </Card>
  )
}

const cost = (e: SaleEntry | undefined, rows: readonly ShownPriceRow[]) => (e ? unitPriceCents(e, rows) : null)

/** Face SDK: the all-in-one terms, the Face SDK subscription and "build your own". */
function FacePlans({ rows }: { rows: readonly ShownPriceRow[] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const entries = basketEntriesOf('face')
  const allInOne = entries.filter((e) => e.months !== null)
  const subscription = entries.find((e) => e.months === null)
  const subscriptionCost = cost(subscription, rows)
  const state: CheckoutState = { addLicenseType: 'all-in-one' }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      <PlanCard
        title={t('Face SDK all-in-one')}
        price={
          <List spacing={4} size="sm" listStyleType="none" ml={0} pl={0}>
            {allInOne.map((e) => {
              const c = cost(e, rows)
              return (
                <List.Item key={e.id}>
                  {e.months === 1 ? t('1 month') : t('{{months}} months', { months: e.months })}: <b>{c === null ? t('Not for sale') : formatCents(c)}</b>
                </List.Item>
              )
            })}
          </List>
        }
        action={
          <Button component={Link} to={paths.subscriptionCheckout('face', 'all-in-one')} state={state} disabled={allInOne.every((e) => cost(e, rows) === null)}>
            {t('Choose a term')}
          </Button>
        }
      >
        <Text size="sm" c="dimmed">
          {t(
            'Every estimator, 2D and depth liveness, the matcher, the processor and the video client, with a search index of up to 1,000 faces. One device each.',
          )}
        </Text>
      </PlanCard>
      {subscription && (
        <PlanCard
          title={t(subscription.title)}
          price={<Text fw={700}>{subscriptionCost === null ? t('Not for sale') : t('{{amount}} a month', { amount: formatCents(subscriptionCost) })}</Text>}
          action={
            <Button
              disabled={subscriptionCost === null}
              onClick={() => {
                basketStore.add('face', configOf(subscription))
                void navigate(paths.checkout('face'))
              }}
            >
              {t('Add to basket')}
            </Button>
          }
        >
          <Text size="sm" c="dimmed">
            {t('The Face SDK online license, renewed every month.')}
          </Text>
        </PlanCard>
      )}
      <PlanCard
        title={t('Build your own')}
        price={<Text fw={700}>{t('Pick your components')}</Text>}
        action={
          <Button component={Link} to={paths.customBuilder()} variant="light">
            {t('Build your subscription')}
          </Button>
        }
      >
        <Text size="sm" c="dimmed">
          {t('Only the estimators you need and a face database of your size, priced per month.')}
        </Text>
      </PlanCard>
    </SimpleGrid>
  )
}

/** Nuitrack Analytics: the cloud subscription and the on-premise offer (through sales). */
function AnalyticsPlans({ rows }: { rows: readonly ShownPriceRow[] }) {
  const { t } = useTranslation()
  const cloud = basketEntriesOf('nuitrack-analytics')[0]
  const cloudCost = cost(cloud, rows)
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <PlanCard
        title={t('Cloud')}
        price={<Text fw={700}>{cloudCost === null ? t('Not for sale') : t('{{amount}} a month', { amount: formatCents(cloudCost) })}</Text>}
        action={
          <Button component={Link} to={paths.checkout('nuitrack-analytics')} disabled={cloudCost === null}>
            {t('Subscribe')}
          </Button>
        }
      >
        <Text size="sm" c="dimmed">
          {t('Nuitrack Analytics in our cloud: nothing to install, pause any time.')}
        </Text>
      </PlanCard>
      <PlanCard
        title={t('On-premise')}
        price={<Text fw={700}>{t('Priced to your installation')}</Text>}
        action={
          <Button variant="light" onClick={() => contactSales.open({ details: t('We would like to run Nuitrack Analytics on our own servers.') })}>
            {t('Contact sales')}
          </Button>
        }
      >
        <Text size="sm" c="dimmed">
          {t('Run Nuitrack Analytics on your own servers. Our sales team prepares an offer for you.')}
        </Text>
      </PlanCard>
    </SimpleGrid>
  )
}
