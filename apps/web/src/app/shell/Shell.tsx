import { lazy, useEffect, useRef, useState } from 'react'
import { Anchor, AppShell, Burger, Divider, Group, NavLink, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core'
import { useDisclosure, useReducedMotion } from '@mantine/hooks'
import { useTranslation } from 'react-i18next'
import { Link, Outlet, useLocation, useNavigate } from 'react-router'
import { PLATFORMS, PLATFORM_TITLES } from '@portal/domain'
import { formatUsd } from '../../lib/format.ts'
import { PORTAL_VERSION, copyrightYear } from '../../lib/version.ts'
import { PURCHASE_NOT_PAID, TOP_UP_NOT_PAID, external, paths } from '../../config/paths.ts'
import { notifyNotice } from '../../lib/notify.ts'
import { useWhatsNewOnRelease } from '../../features/changelog/components/use-whats-new-on-release.ts'
import { FeedbackButton } from '../../features/feedback/components/FeedbackButton.tsx'
import { useProfile } from '../../lib/use-profile.ts'
import { useCan } from '../../lib/use-can.ts'
import { AccountMenu } from '../../features/orgs/components/AccountMenu.tsx'
import { useContactSales } from '../../lib/contact-sales.ts'
import { openFillBalance, useFillBalance } from '../../lib/fill-balance.ts'
import { useQuery } from '@tanstack/react-query'
import { groupsQueryOptions } from '../../api/groups.ts'
import { licenseTotalQueryOptions } from '../../api/licenses.ts'
import { OnceOpened } from '../../components/OnceOpened.tsx'
import { MAIN_ID, SkipLink } from '../../components/SkipLink.tsx'
import { TRANSITION_MS } from '../theme.ts'
import { markTourSeen, tourSeen } from './tour-seen.ts'
import classes from './shell.module.css'

// the shell's dialogs load their code when they first open (app/shell/OnceOpened.tsx)
const FillBalanceModal = lazy(() => import('../../features/balance/components/FillBalanceModal.tsx').then((m) => ({ default: m.FillBalanceModal })))
const ContactSalesModal = lazy(() => import('../../features/support/components/ContactSalesModal.tsx').then((m) => ({ default: m.ContactSalesModal })))
const WhatsNewModal = lazy(() => import('../../features/changelog/components/WhatsNewModal.tsx').then((m) => ({ default: m.WhatsNewModal })))
const OnboardingTour = lazy(() => import('./OnboardingTour.tsx').then((m) => ({ default: m.OnboardingTour })))

/** Collapse breakpoint: at 1024 px and below the menu sits behind the burger. */
export const SHELL_BREAKPOINT = 1025

function MenuLink({ to, label, active }: { to: string; label: string; active: boolean }) {
  return <NavLink component={Link} to={to} label={label} active={active} aria-current={active ? 'page' : undefined} />
}

/** The signed-in layout: header with the display name, side menu, and the page. */
export function Shell() {
  const { t } = useTranslation()
  const [opened, { toggle, close }] = useDisclosure(false)
  const [whatsNew, setWhatsNew] = useState(false)
  const profile = useProfile()
  const { pathname } = useLocation()
  const info = profile.data?.client_info
  // both open by themselves on a dashboard (where a client lands), reading what the dashboard reads
  const [newRelease, closeNewRelease] = useWhatsNewOnRelease(DASHBOARD.test(pathname) ? info?.email : undefined)
  const tour = useTour(info?.email, pathname)
  const fillBalance = useFillBalance()
  const sales = useContactSales()
  const addFunds = useCan('money')
  const documents = useCan('documents')

  // the burger menu closes when the user moves to another page
  useEffect(() => close(), [pathname, close])
  useNotPaidNotice()
  // below the breakpoint the open menu covers the page: the keyboard goes into it, and Escape
  // closes it and comes back to the burger
  const burger = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (opened) menu.current?.querySelector<HTMLElement>('button, a[href]')?.focus()
  }, [opened])
  const closeMenu = () => {
    close()
    burger.current?.focus()
  }

  const is = (prefix: string) => pathname.startsWith(prefix)
  const reduceMotion = useReducedMotion()

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: SHELL_BREAKPOINT, collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', xs: 'lg' }}
      transitionDuration={reduceMotion ? 0 : TRANSITION_MS}
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={burger}
              data-tour="menu-button"
              className={classes.burger}
              opened={opened}
              onClick={toggle}
              size="sm"
              aria-label={opened ? t('Close menu') : t('Open menu')}
              aria-expanded={opened}
              aria-controls="side-menu"
            />
            <Anchor component={Link} to={paths.dashboard('nuitrack')} underline="never" c="indigo.8" fw={800} fz={20} className={classes.logo}>
              3DiVi{' '}
              <Text span inherit c="dark.6">
                Portal
              </Text>
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap" className={classes.end}>
            <FeedbackButton />
            {profile.data ? <AccountMenu profile={profile.data} className={classes.name} /> : <Skeleton h={16} w={140} />}
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        id="side-menu"
        ref={menu}
        aria-label={t('Main menu')}
        p="sm"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && opened) closeMenu()
        }}
      >
        <AppShell.Section>
          {/* the balance card opens the fill-balance modal, for a role that may add money */}
          <UnstyledButton
            p="sm"
            w="100%"
            className={classes.balance}
            onClick={addFunds ? () => openFillBalance() : undefined}
            aria-haspopup={addFunds ? 'dialog' : undefined}
            component={addFunds ? 'button' : 'div'}
            data-tour="balance"
          >
            <Text span display="block" size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('Balance')}
            </Text>
            {info ? (
              <Text span display="block" fz={22} fw={700} data-testid="balance">
                {formatUsd(info.balance)}
              </Text>
            ) : (
              <Skeleton component="span" display="block" h={28} w={90} mt={4} />
            )}
            {info && (info.owed ?? 0) > 0 ? (
              <Text span display="block" size="sm" fw={600} c="red.8" data-testid="balance-owed">
                {t('balance.owed', { amount: formatUsd(info.owed) })}
              </Text>
            ) : null}
            {addFunds ? (
              <Text span display="block" size="sm" fw={600} c="indigo.8" mt={2}>
                {t('Add funds')}
              </Text>
            ) : null}
          </UnstyledButton>
        </AppShell.Section>
        <AppShell.Section grow mt="sm" className={classes.menuScroll}>
          <div data-tour="products">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600} px="sm" mb={4}>
              {t('Products')}
            </Text>
            {PLATFORMS.map((p) => (
              <MenuLink key={p} to={paths.dashboard(p)} label={PLATFORM_TITLES[p]} active={is(`/app/${p}/`)} />
            ))}
          </div>
          <Divider my="sm" />
          <MenuLink to={paths.groupKeys} label={t('Group keys')} active={is(paths.groupKeys)} />
          {documents ? <MenuLink to={paths.paymentDoc} label={t('Payment documents')} active={is(paths.paymentDoc)} /> : null}
          {documents ? <MenuLink to={paths.fleet} label={t('Fleet and spend')} active={is(paths.fleet)} /> : null}
          {info?.options.corporate_member ? <MenuLink to={paths.members} label={t('Members')} active={is(paths.members)} /> : null}
          {info?.is_staff && <MenuLink to={paths.staffPerpetual} label={t('Staff: custom licenses')} active={is('/app/staff/')} />}
          <MenuLink to={paths.account} label={t('Account')} active={is(paths.account)} />
          <NavLink component={Link} to={paths.logout} label={t('Log out')} />
        </AppShell.Section>
        <AppShell.Section>
          <Divider mb="sm" />
          <Stack gap={6} px="sm" pb="xs">
            <Anchor href={external.support('freshdesk')} target="_blank" rel="noopener noreferrer" size="sm">
              {t('Support')}
            </Anchor>
            <UnstyledButton onClick={tour.reopen} fz="sm" c="indigo.8" ta="left" aria-haspopup="dialog">
              {t('Take the tour')}
            </UnstyledButton>
            <Group gap="xs" justify="space-between">
              <Text size="xs" c="dimmed" data-testid="version">
                {t('Version')} {PORTAL_VERSION}
              </Text>
              <UnstyledButton onClick={() => setWhatsNew(true)} fz="xs" c="indigo.8" td="underline">
                {t('Release notes')}
              </UnstyledButton>
            </Group>
            <Text size="xs" c="dimmed" data-testid="copyright">
              {t('© {{year}} 3DiVi Inc.', { year: copyrightYear() })}
            </Text>
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0" id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
      <OnceOpened open={whatsNew || newRelease}>
        <WhatsNewModal
          opened={whatsNew || newRelease}
          onClose={() => {
            setWhatsNew(false)
            closeNewRelease()
          }}
        />
      </OnceOpened>
      <OnceOpened open={fillBalance !== null}>
        <FillBalanceModal />
      </OnceOpened>
      <OnceOpened open={sales !== null}>
        <ContactSalesModal />
      </OnceOpened>
      <OnceOpened open={tour.opened}>
        <OnboardingTour opened={tour.opened} onClose={tour.close} />
      </OnceOpened>
    </AppShell>
  )
}

const DASHBOARD = /^\/app\/(nuitrack|face|face-machine|nuitrack-analytics)\/dashboard\/$/

/**
 * The onboarding tour opens by itself once for a new client (no licenses, no groups) on a
 * dashboard, remembered per e-mail in this browser; the menu's "Take the tour" opens it again
 * (on the current dashboard, else Nuitrack's).
 */
function useTour(email: string | undefined, pathname: string) {
  const navigate = useNavigate()
  const onDashboard = DASHBOARD.test(pathname)
  // how many licenses, not the list: one row read
  const licenses = useQuery({ ...licenseTotalQueryOptions(), enabled: onDashboard })
  const groups = useQuery({ ...groupsQueryOptions(), enabled: onDashboard })
  const [opened, setOpened] = useState(false)
  const isNew = licenses.data === 0 && groups.data?.groups.length === 0
  useEffect(() => {
    if (!email || !onDashboard || !isNew || tourSeen(email)) return
    markTourSeen(email)
    setOpened(true)
  }, [email, onDashboard, isNew])
  return {
    opened,
    close: () => setOpened(false),
    reopen: () => {
      if (!onDashboard) navigate(paths.dashboard('nuitrack'))
      if (email) markTourSeen(email)
      setOpened(true)
    },
  }
}

/**
 * A checkout that was left unpaid (cancelled, or declined) comes back with TOP_UP_NOT_PAID (a top-up)
 * or PURCHASE_NOT_PAID (a purchase, back on its checkout with the basket kept): the customer is told
 * that nothing was charged, once, and the address loses the query (a reload does not say it again).
 */
function useNotPaidNotice() {
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    const params = new URLSearchParams(search)
    const topUp = params.get(TOP_UP_NOT_PAID.name) === TOP_UP_NOT_PAID.value
    const purchase = params.get(PURCHASE_NOT_PAID.name) === PURCHASE_NOT_PAID.value
    if (!topUp && !purchase) return
    if (topUp) notifyNotice(t('The top-up was not paid'), t('Nothing was charged, and your balance is as it was. You can try again with Add funds.'))
    if (purchase) {
      notifyNotice(
        t('The payment was not completed'),
        t('The card or PayPal payment was declined or cancelled, and nothing was charged. Your basket is kept: choose how to pay and try again.'),
      )
    }
    params.delete(TOP_UP_NOT_PAID.name)
    params.delete(PURCHASE_NOT_PAID.name)
    const rest = params.toString()
    navigate(`${pathname}${rest ? `?${rest}` : ''}`, { replace: true })
  }, [pathname, search, navigate, t])
}
