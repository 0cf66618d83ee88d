import { useMemo, useState } from 'react'
import { Alert, Anchor, Button, Card, Center, Group, Loader, SegmentedControl, SimpleGrid, Stack, Stepper, Table, Tabs, Text, Title, VisuallyHidden } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { PLATFORM_TITLES, STATE_LABELS, SUPPORT_SERVICE, productTitle, trialOfPlatform, type LicenseState, type Platform } from '@portal/domain'
import { useLicenses, licensesQueryOptions, startTrial } from '../../../api/licenses.ts'
import { groupsQueryOptions, useGroups } from '../../../api/groups.ts'
import { useProfile } from '../../../api/profile.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { StatusBadge, expiryLabel } from '../../../components/LicenseBits.tsx'
import { notifySuccess } from '../../../lib/notify.ts'
import { EXTERNAL, paths, supportUrl } from '../../../config/paths.ts'
import classes from './dashboard.module.css'
import { FIRST_PAGE, PAGE_STEP, PRODUCT_FILTERS, STATUS_TABS, buildRows, productMatches, rowIsTrial, rowProduct, type Row } from './filters.ts'

export function DashboardPage() {
  const platform = useParams().platform as Platform
  const licenses = useLicenses()
  const groups = useGroups()
  const loading = licenses.isPending || groups.isPending
  const rows = useMemo(() => buildRows(platform, licenses.data?.licenses ?? [], groups.data?.groups ?? []), [platform, licenses.data, groups.data])
  const firstSteps = useFirstStepsHidden(platform)
  const showFirstSteps = !loading && rows.length === 0 && !firstSteps.hidden

  return (
    <>
      <PageTitle>{PLATFORM_TITLES[platform]}</PageTitle>
      <Stack gap="lg">
        <HelpTiles platform={platform} />
        {showFirstSteps && <FirstSteps platform={platform} onHide={() => firstSteps.setHidden(true)} />}
        {loading ? (
          <Center py="xl">
            <Loader aria-label="Loading licenses" />
          </Center>
        ) : (
          <>
            <DefaultGroups platform={platform} rows={rows} />
            <LicenseTable key={platform} platform={platform} rows={rows} firstStepsShown={showFirstSteps} onShowFirstSteps={() => firstSteps.setHidden(false)} />
          </>
        )}
      </Stack>
    </>
  )
}

const DOCS: Record<Platform, string> = {
  nuitrack: EXTERNAL.nuitrackDocs,
  face: EXTERNAL.faceDocs,
  'face-machine': EXTERNAL.faceMachineDocs,
  'nuitrack-analytics': EXTERNAL.analyticsDocs,
}

/** Help tiles per platform (section 2); buying arrives with the basket, so no buy tile yet. */
function HelpTiles({ platform }: { platform: Platform }) {
  const tiles = [
    { title: 'Support', text: 'Ask our engineers; they answer within one working day.', href: supportUrl(SUPPORT_SERVICE[platform]), cta: 'Open a ticket' },
    { title: 'Documentation', text: `Guides and API reference for ${PLATFORM_TITLES[platform]}.`, href: DOCS[platform], cta: 'Read the docs' },
    ...(platform === 'nuitrack' ? [{ title: 'Forum', text: 'Questions and answers of the Nuitrack community.', href: EXTERNAL.forum, cta: 'Visit the forum' }] : []),
  ]
  return (
    <SimpleGrid cols={{ base: 1, sm: tiles.length }} component="section" aria-label="Help">
      {tiles.map((t) => (
        <Card key={t.title} withBorder padding="md">
          <Text fw={600}>{t.title}</Text>
          <Text size="sm" c="dimmed" mb="sm">
            {t.text}
          </Text>
          <Anchor href={t.href} target="_blank" rel="noopener noreferrer" size="sm">
            {t.cta}
            <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
          </Anchor>
        </Card>
      ))}
    </SimpleGrid>
  )
}

/** The short name a trial button uses. */
const TRIAL_NAME: Record<Platform, string> = { nuitrack: 'Nuitrack', face: 'Face SDK', 'face-machine': 'Face Machine', 'nuitrack-analytics': 'Analytics' }
/** The platform's free trial, as the catalogue has it, and its button. */
const trialFor = (platform: Platform) => {
  const trial = trialOfPlatform(platform)
  if (!trial) return null
  const label = trial.days ? `Start the ${trial.days}-day ${TRIAL_NAME[platform]} trial` : `Start the free ${TRIAL_NAME[platform]} trial`
  return { product: trial.product, tag: trial.tag, label }
}

const STEPS: Record<Platform, string[]> = {
  nuitrack: ['Get a license', 'Start building'],
  face: ['Fill the balance', 'Get a license', 'Start building'],
  'face-machine': ['Start a trial', 'Fill the balance', 'Start working'],
  'nuitrack-analytics': ['Start a trial', 'Fill the balance', 'Start working'],
}

/** Whether the client closed the first steps, remembered in session storage per e-mail and platform. */
function useFirstStepsHidden(platform: Platform) {
  const email = useProfile().data?.client_info.email ?? ''
  const key = `portal.first-steps.${email}.${platform}`
  const [, rerender] = useState(0)
  return {
    hidden: sessionStorage.getItem(key) === 'hidden',
    setHidden: (hidden: boolean) => {
      if (hidden) sessionStorage.setItem(key, 'hidden')
      else sessionStorage.removeItem(key)
      rerender((n) => n + 1)
    },
  }
}

/** The onboarding first steps; the dashboard shows them while the client has no licenses and has not closed them. */
function FirstSteps({ platform, onHide }: { platform: Platform; onHide: () => void }) {
  const qc = useQueryClient()
  const [starting, setStarting] = useState(false)
  const trial = trialFor(platform)
  const start = async () => {
    if (!trial) return
    setStarting(true)
    try {
      await startTrial(trial.product, trial.tag)
      notifySuccess('Trial started', 'Your trial license is in the table below.')
      await Promise.all([qc.invalidateQueries({ queryKey: licensesQueryOptions().queryKey }), qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey })])
    } catch {
      // the error modal has told the user
    } finally {
      setStarting(false)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="first-steps">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="first-steps">
          First steps
        </Title>
        <Button variant="subtle" size="xs" onClick={onHide}>
          Hide
        </Button>
      </Group>
      <Stepper active={0} size="sm" allowNextStepsSelect={false}>
        {STEPS[platform].map((label) => (
          <Stepper.Step key={label} label={label} />
        ))}
      </Stepper>
      <Group mt="md">
        {trial ? (
          <Button onClick={start} loading={starting}>
            {trial.label}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            Face SDK licenses are issued by our sales team for now: contact support to get one.
          </Text>
        )}
      </Group>
    </Card>
  )
}

function DefaultGroups({ platform, rows }: { platform: Platform; rows: Row[] }) {
  const slots = rows.filter((r): r is Extract<Row, { kind: 'slot' }> => r.kind === 'slot')
  if (!slots.length) return null
  return (
    <section aria-labelledby="available-title">
      <Title order={2} size="h4" mb="sm" id="available-title">
        Available to generate
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {slots.map(({ group }) => (
          <Card key={group.id} withBorder padding="md">
            <Text fw={600}>{group.title}</Text>
            <Text size="sm" c="dimmed" mb="sm">
              {group.limit} of {group.total} licenses not generated yet{group.holded_limit > 0 ? `, ${group.holded_limit} on hold` : ''}
            </Text>
            <Button component={Link} to={paths.preInfo(platform, group.id, group.limit === 0 && group.holded_limit > 0)} variant="light" size="xs">
              Generate a key
            </Button>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  )
}

const STATUS_VALUES = (platform: Platform) => ['all', ...STATUS_TABS(platform)] as const

/** The empty table says where a first license comes from, true to what the screen shows. */
function NoLicenses({ platform, firstStepsShown, onShowFirstSteps }: { platform: Platform; firstStepsShown: boolean; onShowFirstSteps: () => void }) {
  const support = (
    <Anchor href={supportUrl(SUPPORT_SERVICE[platform])} target="_blank" rel="noopener noreferrer" inherit>
      contact support
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </Anchor>
  )
  return (
    <Alert color="gray" title="You have no licenses yet">
      {!trialOfPlatform(platform) ? (
        <>Licenses you get appear here. {PLATFORM_TITLES[platform]} licenses are issued by our sales team: {support} to get one.</>
      ) : firstStepsShown ? (
        <>Licenses you get appear here. Start with a trial in the first steps above, or {support} to buy.</>
      ) : (
        <Stack gap="xs" align="flex-start">
          <span>Licenses you get appear here. Start a free trial from the first steps, or {support} to buy.</span>
          <Button variant="light" size="xs" onClick={onShowFirstSteps}>
            Show the first steps
          </Button>
        </Stack>
      )}
    </Alert>
  )
}

function LicenseTable({ platform, rows, firstStepsShown, onShowFirstSteps }: { platform: Platform; rows: Row[]; firstStepsShown: boolean; onShowFirstSteps: () => void }) {
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
  const hrefOf = (r: Row) => (r.kind === 'license' ? `${pathname}${r.license.id}/info/` : `${pathname}${r.group.id}/pre-info/${r.status === 'holded' ? '?holded' : ''}`)

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="licenses-title">
      <Title order={2} size="h4" mb="sm" id="licenses-title">
        Licenses
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
          <Tabs.Tab value="all">All ({byProduct.length})</Tabs.Tab>
          {STATUS_TABS(platform).map((s) => (
            <Tabs.Tab key={s} value={s} disabled={counts[s] === 0}>
              {STATE_LABELS[s]} ({counts[s]})
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
          aria-label="Product"
          value={product}
          onChange={(v) => {
            setProduct(v)
            setStatus('all')
            reset()
          }}
          data={productFilters}
        />
      )}
      {rows.length === 0 ? (
        <NoLicenses platform={platform} firstStepsShown={firstStepsShown} onShowFirstSteps={onShowFirstSteps} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={720} type="native" data-testid="license-table-scroll">
            <Table highlightOnHover verticalSpacing="sm" className={classes.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Product</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Expires</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {visible.map((r) => {
                  const title = r.kind === 'license' ? r.license.title : `${r.group.title}: ${r.group.limit} to generate`
                  return (
                    <Table.Tr key={r.kind === 'license' ? `l${r.license.id}` : `g${r.group.id}`} style={{ cursor: 'pointer' }} onClick={() => navigate(hrefOf(r))} data-testid="license-row">
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
                      <Table.Td className={classes.nowrap}>{r.kind === 'license' ? expiryLabel(r.license) : '—'}</Table.Td>
                    </Table.Tr>
                  )
                })}
                {visible.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text ta="center" c="dimmed" py="md">
                        No licenses match the filter.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" mt="md">
            <Text size="sm" c="dimmed" aria-live="polite">
              Showing {visible.length} of {filtered.length}
            </Text>
            {filtered.length > shown && (
              <Button variant="light" onClick={() => setShown((n) => n + PAGE_STEP)}>
                Show {Math.min(PAGE_STEP, filtered.length - shown)} more
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

