import { Suspense, lazy, useMemo, useState, useTransition } from 'react'
import { Alert, Anchor, Button, Card, Center, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/use-can.ts'
import { Link, useParams } from 'react-router'
import { PLATFORM_TITLES, SUPPORT_SERVICE, platformHasBasket, trialOffer, trialOfPlatform, type LicenseState, type Platform } from '@portal/domain'
import { FIRST_PAGE, PAGE_STEP, licensePagesQueryOptions, unfiltered, type LicenseFilter } from '../../../api/licenses.ts'
import { useGroups } from '../../../api/groups.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { EXTERNAL, PLATFORM_DOCS, paths, supportUrl } from '../../../config/paths.ts'
import { buildRows } from '../components/filters.ts'
import { DefaultGroups } from '../components/DefaultGroups.tsx'
import { FleetStrip } from '../components/FleetStrip.tsx'
import { useFirstStepsVisibility } from '../components/first-steps-storage.ts'
import { LicenseTable } from '../components/LicenseTable.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

// only a client without licenses sees the first steps (a Stepper and react-i18next's Trans): their code loads when
// they are first shown, under the boundary below, whose fallback is the list's loading state
const FirstSteps = lazy(() => import('../components/FirstSteps.tsx').then((m) => ({ default: m.FirstSteps })))

/** The table's filter and how many rows it shows; a new platform starts over. */
type TableState = LicenseFilter & { shown: number }
const initial = (platform: Platform): TableState => ({ ...unfiltered(platform), shown: FIRST_PAGE })

export function DashboardPage() {
  const { t } = useTranslation()
  const platform = useParams().platform as Platform
  const [chosen, setChosen] = useState<TableState>(() => initial(platform))
  const table = chosen.platform === platform ? chosen : initial(platform)
  const filter: LicenseFilter = { platform, status: table.status, product: table.product }
  // only the rows shown are read, a page at a time; while another filter of this platform loads, the
  // last one stays on screen (never another platform's)
  const pages = useInfiniteQuery({
    ...licensePagesQueryOptions(filter),
    placeholderData: (previous, query) => ((query?.queryKey[2] as LicenseFilter | undefined)?.platform === platform ? previous : undefined),
  })
  const groups = useGroups()
  const loading = pages.isPending || groups.isPending
  // a list or groups request that failed (the error dialog has said why) leaves nothing to draw: say so, with a retry
  const failed = (pages.isError && !pages.data) || (groups.isError && !groups.data)
  const first = pages.data?.pages[0]
  const licenses = useMemo(() => pages.data?.pages.flatMap((p) => p.licenses) ?? [], [pages.data])
  const slots = useMemo(() => buildRows(platform, [], groups.data?.groups ?? []), [platform, groups.data])
  const hasLicense = slots.length > 0 || (first?.counts.product.all ?? 0) > 0
  const profile = useProfile().data
  const email = profile?.client_info.email ?? ''
  // the trial is offered only while the client has not taken it
  const trialsUsed = profile?.trials_used ?? []
  // hidden when the client had licenses on first opening this dashboard in the session; once shown
  // it stays (progressing to success) until Hide or Done
  const firstSteps = useFirstStepsVisibility(platform, email, loading || failed ? null : hasLicense)
  // the first steps buy and add funds: for a role that may spend the account's money
  const mayBuy = useCan('money')
  const showFirstSteps = mayBuy && !loading && !failed && firstSteps.visible
  // shown again from the empty table: the table stays on screen while the first steps' code loads
  const [, startTransition] = useTransition()
  const showFirstStepsAgain = () => startTransition(firstSteps.show)

  const choose = (status: 'all' | LicenseState, product: string) => setChosen({ platform, status, product, shown: FIRST_PAGE })
  const showMore = (licensesNeeded: number) => {
    setChosen({ ...table, shown: table.shown + PAGE_STEP })
    if (licenses.length < licensesNeeded && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage()
  }

  return (
    <>
      <PageTitle>{PLATFORM_TITLES[platform]}</PageTitle>
      <Stack gap="lg">
        <HelpTiles platform={platform} />
        <FleetStrip platform={platform} />
        {failed ? (
          <Alert color="red" title={t('The licenses could not be loaded')}>
            <Stack gap="xs" align="flex-start">
              <span>{t('Check your connection and try again.')}</span>
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  if (pages.isError) void pages.refetch()
                  if (groups.isError) void groups.refetch()
                }}
              >
                {t('Try again')}
              </Button>
            </Stack>
          </Alert>
        ) : loading || !first ? (
          <LicensesLoading />
        ) : (
          <Suspense fallback={<LicensesLoading />}>
            {showFirstSteps && (
              <FirstSteps
                platform={platform}
                hasLicense={hasLicense}
                trial={trialFor(platform, trialsUsed) ?? undefined}
                trialUsed={trialOfPlatform(platform) !== null && trialOffer(platform, trialsUsed) === null}
                docsHref={PLATFORM_DOCS[platform]}
                onHide={firstSteps.hide}
              />
            )}
            <Stack gap="lg" data-tour="licenses">
              <DefaultGroups platform={platform} rows={slots} unactivated={groups.data?.unactivated_licenses ?? 0} />
              <LicenseTable
                key={platform}
                platform={platform}
                slots={slots}
                licenses={licenses}
                total={first.total}
                counts={first.counts}
                status={table.status}
                product={table.product}
                shown={table.shown}
                loadingMore={pages.isFetchingNextPage || pages.isPlaceholderData}
                onChoose={choose}
                onShowMore={showMore}
                trialOffered={trialOffer(platform, trialsUsed) !== null}
                firstStepsShown={showFirstSteps}
                onShowFirstSteps={showFirstStepsAgain}
              />
            </Stack>
          </Suspense>
        )}
      </Stack>
    </>
  )
}

/** The list's loading state, also while the code of the first steps or the empty table loads. */
function LicensesLoading() {
  const { t } = useTranslation()
  return (
    <Center py="xl">
      <Spinner label={t('Loading licenses')} />
    </Center>
  )
}

/** Help tiles per platform (section 2): buy (into the basket), support, docs and, for Nuitrack, the forum. */
function HelpTiles({ platform }: { platform: Platform }) {
  const { t } = useTranslation()
  // buying is for a role that may spend the account's money
  const buy = useCan('money')
  const tiles: { title: string; text: string; cta: string; to?: string; href?: string }[] = [
    ...(buy && platformHasBasket(platform)
      ? [
          {
            title: 'Buy',
            text: t('Choose a license or subscription and pay from the balance, by card or with PayPal.'),
            to: paths.basket(platform),
            cta: 'Go to the basket',
          },
        ]
      : []),
    { title: 'Support', text: t('Ask our engineers; they answer within one working day.'), href: supportUrl(SUPPORT_SERVICE[platform]), cta: 'Open a ticket' },
    {
      title: 'Documentation',
      text: t('Guides and API reference for {{platform}}.', { platform: PLATFORM_TITLES[platform] }),
      href: PLATFORM_DOCS[platform],
      cta: 'Read the docs',
    },
    ...(platform === 'nuitrack'
      ? [{ title: 'Forum', text: t('Questions and answers of the Nuitrack community.'), href: EXTERNAL.forum, cta: 'Visit the forum' }]
      : []),
  ]
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: tiles.length }} component="section" aria-label={t('Help')} data-tour="help">
      {tiles.map((tile) => (
        <Card key={tile.title} withBorder padding="md">
          <Text fw={600}>{t(tile.title)}</Text>
          <Text size="sm" c="dimmed" mb="sm">
            {tile.text}
          </Text>
          {tile.to ? (
            <Anchor component={Link} to={tile.to} size="sm">
              {t(tile.cta)}
            </Anchor>
          ) : (
            <Anchor href={tile.href} target="_blank" rel="noopener noreferrer" size="sm">
              {t(tile.cta)}
              <VisuallyHidden> {t('(opens in a new tab)')}</VisuallyHidden>
            </Anchor>
          )}
        </Card>
      ))}
    </SimpleGrid>
  )
}

/** The short name a trial button uses. */
const TRIAL_NAME: Record<Platform, string> = { nuitrack: 'Nuitrack', face: 'Face SDK', 'face-machine': 'Face Machine', 'nuitrack-analytics': 'Analytics' }
/** The platform's free trial, as the catalogue has it, and its button: none once the client has taken it. */
const trialFor = (platform: Platform, trialsUsed: readonly string[]) => {
  const trial = trialOffer(platform, trialsUsed)
  if (!trial) return null
  const label = trial.days ? 'Start the {{days}}-day {{name}} trial' : 'Start the free {{name}} trial'
  return { product: trial.product, tag: trial.tag, label, labelValues: { days: trial.days, name: TRIAL_NAME[platform] } }
}
