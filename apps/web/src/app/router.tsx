import { useMemo, useRef } from 'react'
import { Navigate, Outlet, matchRoutes, useLocation, useRoutes, type Params, type RouteObject } from 'react-router'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { PLATFORM_TITLES, SIGN_IN_PATHS, isPlatform } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { isLogged } from '../lib/session.ts'
import { prefetchSignedIn } from './prefetch.ts'
import { AnonymousOnly, AppCatchAll, PlatformGate, PlatformIndex, RequireAuth } from './guards.tsx'
import { NOT_FOUND_TITLE, titled, useDocumentTitle, type TitleHandle } from './document-title.ts'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { RootLayout } from './root-layout.tsx'
import { lazyScreen } from './lazy-screen.tsx'

/*
 * Every screen is a lazy screen (app/lazy-screen.tsx): the entry holds the providers, the guards and
 * this table; each screen's code (and the signed-in shell's) is its own chunk, fetched when a path
 * first matches it. The sign-in family thus loads without the shell, dashboards, staff, basket or PDF
 * code (docs/decisions.md, "A light first load"). The table is React Router's declarative routes, not
 * its data router, whose loaders and lazy routes weigh 17 KB of gzipped script on every first load
 * (docs/decisions.md, "React Router without its data router"); what they did here, this file does.
 */

/** What a route tells the app beyond its element: its screen's title, its code, the data it draws first. */
interface RouteHandle extends Partial<TitleHandle> {
  preload?: () => Promise<unknown>
  /** starts the screen's first requests; the promise settles once their answers are in the cache (or have failed) */
  prefetch?: (client: QueryClient, params: Params) => Promise<unknown> | void
}

/** A screen's route parts: its element, drawn by a lazy screen, and a handle that preloads its code and names it. */
function screen<M>(
  load: () => Promise<M>,
  render: (module: M) => React.ReactNode,
  title?: TitleHandle['title'],
  prefetch?: RouteHandle['prefetch'],
): Pick<RouteObject, 'element' | 'handle'> {
  const { element, preload } = lazyScreen(load, render)
  return { element, handle: { ...(title ? titled(title) : {}), preload, prefetch } satisfies RouteHandle }
}

const auth = {
  login: () => import('../features/auth/routes/login.tsx'),
  registration: () => import('../features/auth/routes/registration.tsx'),
}
const basket = {
  selection: () => import('../features/basket/routes/license-selection.tsx'),
  checkout: () => import('../features/basket/routes/checkout.tsx'),
}
const staffLicense = () => import('../features/staff/routes/staff-license.tsx')

/**
 * The first requests of a signed-in screen start as its path matches, while its code loads. Only the
 * first page's render waits for them, and not long (main.tsx). Decided as the navigation starts:
 * signed out, the guard sends the visitor to the login screen. The profile's request is in the entry (app/prefetch.ts). A dashboard's
 * (app/prefetch-dashboard.ts) is a chunk of its own: the list's and groups' API modules come with
 * their query hooks, and in the entry they brought TanStack's query observer into every sign-in
 * page. A dashboard's HTML preloads that chunk with the dashboard's code and the requests themselves
 * (vite.config.ts), so a first visit waits for nothing; a navigation to a dashboard fetches it beside
 * the screen's code, and the requests start once it is in.
 */
const signedInData: RouteHandle['prefetch'] = (client) => (isLogged() ? prefetchSignedIn(client) : undefined)
const dashboardData: RouteHandle['prefetch'] = (client, { platform }) =>
  isLogged() && isPlatform(platform)
    ? import('./prefetch-dashboard.ts').then(
        (m) => m.prefetchDashboard(client, platform),
        () => undefined,
      )
    : undefined

/** Redirect keeping the query string and router state (the platform travels along). */
function RedirectKeep({ to }: { to: string }) {
  const location = useLocation()
  return <Navigate to={`${to}${location.search}`} state={location.state} replace />
}

function Anonymous({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation()
  return <AnonymousOnly key={pathname}>{children}</AnonymousOnly>
}

/** The signed-in pages: the guard runs before the shell's chunk is needed to draw anything. */
function Protected() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  )
}

/** The signed-in layout (header, side menu, tour): a chunk of its own, shared by every signed-in page. */
const shell = screen(
  () => import('./shell/Shell.tsx'),
  (m) => <m.Shell />,
)

const confirm = screen(
  () => import('../features/auth/routes/confirm.tsx'),
  (m) => <m.ConfirmRoute />,
  'Confirm your e-mail',
)

/** Gates the basket's screens: loaded with them, in parallel, since the catalogue it reads is no sign-in page's business. */
const basketGate = screen(
  () => import('./routes/BasketGate.tsx'),
  (m) => <m.BasketGate />,
)

const platformTitle = (p: string | undefined) => (isPlatform(p) ? PLATFORM_TITLES[p] : null)

/** Section 2, "Entry and redirects" and "Sign-in family". Every path comes from the table in config/paths.ts. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <Navigate to={paths.platform('nuitrack')} replace /> },
      { path: routes.root, element: <Navigate to={paths.platform('nuitrack')} replace /> },

      // sign-in family
      {
        path: routes.login,
        ...screen(auth.login, (m) => <m.LoginRoute />, 'Sign in'),
      },
      {
        path: routes.analyticsLogin,
        ...screen(auth.login, (m) => <m.AnalyticsLoginRoute />, 'Sign in to Nuitrack Analytics'),
      },
      { path: routes.faceMachineLogin, element: <RedirectKeep to={paths.analyticsLogin} /> },
      {
        path: routes.registration,
        ...screen(
          auth.registration,
          (m) => (
            <Anonymous>
              <m.RegistrationRoute />
            </Anonymous>
          ),
          'Create an account',
        ),
      },
      {
        path: routes.analyticsRegistration,
        ...screen(auth.registration, (m) => <m.AnalyticsRegistrationRoute />, 'Nuitrack Analytics registration'),
      },
      { path: routes.faceMachineRegistration, element: <RedirectKeep to={paths.analyticsRegistration} /> },
      {
        path: routes.forgotPassword,
        ...screen(
          () => import('../features/auth/routes/forgot-password.tsx'),
          (m) => (
            <Anonymous>
              <m.ForgotPasswordRoute />
            </Anonymous>
          ),
          'Forgot password',
        ),
      },
      {
        path: routes.setPassword,
        ...screen(
          () => import('../features/auth/routes/set-password.tsx'),
          (m) => (
            <Anonymous>
              <m.SetPasswordRoute />
            </Anonymous>
          ),
          'Set a new password',
        ),
      },
      { path: routes.confirm, ...confirm },
      { path: routes.registrationConfirm, ...confirm },
      {
        path: routes.logout,
        ...screen(
          () => import('../features/auth/routes/logout.tsx'),
          (m) => <m.LogoutRoute />,
          'Signing out',
        ),
      },
      // unknown paths under the sign-in family go to /app/
      ...SIGN_IN_PATHS.map((p) => ({ path: `/app/${p}/*`, element: <Navigate to={paths.root} replace /> })),

      { path: routes.faceFaceMachine, element: <Navigate to={paths.platform('face-machine')} replace /> },

      // signed-in pages
      {
        element: <Protected />,
        handle: { prefetch: signedInData } satisfies RouteHandle,
        children: [
          {
            ...shell,
            children: [
              {
                path: routes.account,
                ...screen(
                  () => import('./routes/AccountScreen.tsx'),
                  (m) => <m.AccountScreen />,
                  'Account',
                ),
              },
              {
                path: routes.groupKeys,
                ...screen(
                  () => import('../features/groups/routes/group-keys.tsx'),
                  (m) => <m.GroupKeysPage />,
                  'Group keys',
                ),
              },
              {
                path: routes.groupKeyInfo,
                ...screen(
                  () => import('../features/groups/routes/group-key-info.tsx'),
                  (m) => <m.GroupKeyInfoPage />,
                  ({ id }) => `Group key #${id}`,
                ),
              },
              {
                path: routes.paymentDoc,
                ...screen(
                  () => import('../features/transactions/routes/payment-doc.tsx'),
                  (m) => <m.PaymentDocRoute />,
                  'Payment documents',
                ),
              },
              {
                path: routes.serviceRedirect,
                ...screen(
                  () => import('../features/support/routes/service-redirect.tsx'),
                  (m) => <m.ServiceRedirectRoute />,
                  'Opening the service',
                ),
              },
              {
                path: routes.staffPerpetual,
                ...screen(staffLicense, (m) => <m.StaffLicensePage variant="perpetual" />, 'Custom perpetual licenses'),
              },
              {
                path: routes.staffSubscription,
                ...screen(staffLicense, (m) => <m.StaffLicensePage variant="subscription" />, 'Custom subscription licenses'),
              },
            ],
          },
        ],
      },
      {
        path: routes.platform,
        element: <PlatformGate />,
        handle: titled(({ platform }) => (platformTitle(platform) ? null : NOT_FOUND_TITLE)),
        children: [
          { index: true, element: <PlatformIndex /> },
          {
            element: <Protected />,
            handle: { prefetch: signedInData } satisfies RouteHandle,
            children: [
              {
                ...shell,
                children: [
                  {
                    path: routes.dashboard,
                    ...screen(
                      () => import('../features/licenses/routes/dashboard.tsx'),
                      (m) => <m.DashboardPage />,
                      ({ platform }) => platformTitle(platform) && `${platformTitle(platform)} dashboard`,
                      dashboardData,
                    ),
                  },
                  {
                    path: routes.licenseInfo,
                    ...screen(
                      () => import('./routes/LicenseInfoRoute.tsx'),
                      (m) => <m.LicenseInfoRoute />,
                      ({ platform, id }) => platformTitle(platform) && `License #${id} · ${platformTitle(platform)}`,
                    ),
                  },
                  {
                    path: routes.preInfo,
                    ...screen(
                      () => import('../features/groups/routes/pre-info.tsx'),
                      (m) => <m.PreInfoPage />,
                      ({ platform }) => platformTitle(platform) && `New license · ${platformTitle(platform)}`,
                    ),
                  },
                  {
                    // a chunk of its own: it asks the catalogue (the product table) which platforms sell
                    ...basketGate,
                    children: [
                      {
                        path: routes.basket,
                        ...screen(
                          basket.selection,
                          (m) => <m.BasketIndexRoute />,
                          ({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`,
                        ),
                      },
                      {
                        path: routes.licenseSelection,
                        ...screen(
                          basket.selection,
                          (m) => <m.LicenseSelectionRoute />,
                          ({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`,
                        ),
                      },
                      {
                        path: routes.customBuilder,
                        ...screen(
                          basket.selection,
                          (m) => <m.LicenseSelectionRoute builder />,
                          ({ platform }) => platformTitle(platform) && `Build your own · ${platformTitle(platform)}`,
                        ),
                      },
                      {
                        path: routes.checkout,
                        ...screen(
                          basket.checkout,
                          (m) => <m.CheckoutRoute />,
                          ({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`,
                        ),
                      },
                      {
                        path: routes.subscriptionCheckout,
                        ...screen(
                          basket.checkout,
                          (m) => <m.SubscriptionCheckoutRoute />,
                          ({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`,
                        ),
                      },
                    ],
                  },
                  {
                    // outside the basket's gate: Face Machine has no basket but has its trial's upgrade
                    path: routes.upgradeCheckout,
                    ...screen(
                      () => import('./routes/UpgradeCheckoutGate.tsx'),
                      (m) => <m.UpgradeCheckoutGate />,
                      ({ platform }) => platformTitle(platform) && `Upgrade · ${platformTitle(platform)}`,
                    ),
                  },
                  {
                    path: routes.licensePurchaseSuccess,
                    ...screen(
                      () => import('../features/basket/routes/license-purchase-success.tsx'),
                      (m) => <m.LicensePurchaseSuccessRoute />,
                      ({ platform }) => platformTitle(platform) && `Purchase complete · ${platformTitle(platform)}`,
                    ),
                  },
                  {
                    path: routes.addFunds,
                    ...screen(
                      () => import('../features/balance/routes/add-funds.tsx'),
                      (m) => <m.AddFundsRoute />,
                      'Add funds',
                    ),
                  },
                  {
                    path: routes.balancePurchaseSuccess,
                    ...screen(
                      () => import('../features/balance/routes/balance-purchase-success.tsx'),
                      (m) => <m.BalancePurchaseSuccessRoute />,
                      'Thank you for your payment',
                    ),
                  },
                ],
              },
            ],
          },
        ],
      },

      { path: '/app/*', element: <AppCatchAll />, handle: titled(NOT_FOUND_TITLE) },
      { path: '*', element: <NotFoundRoute />, handle: titled(NOT_FOUND_TITLE) },
    ],
  },
]

type Match = NonNullable<ReturnType<typeof matchRoutes<RouteObject>>>[number]

/**
 * Starts what the matched routes need: every lazy screen's code at once (the shell's and the page's),
 * and their first data. The promise settles once the data is in the cache or has failed (a failure is
 * the screen's to show as it draws). The code is not waited for here: a screen waits for its own as it
 * draws, and a route the visitor is not let into (a dashboard, signed out) never draws.
 */
function start(matches: readonly Match[], client: QueryClient): Promise<void> {
  const data: Promise<unknown>[] = []
  for (const { route, params } of matches) {
    const handle = route.handle as RouteHandle | undefined
    handle?.preload?.().catch(() => undefined)
    const answers = handle?.prefetch?.(client, params)
    if (answers) data.push(answers.catch(() => undefined))
  }
  return Promise.all(data).then(() => undefined)
}

/** How many paths a table keeps the matches of. */
const MATCHES_KEPT = 20
const matchesByTable = new WeakMap<RouteObject[], Map<string, Match[]>>()
/**
 * The routes a path matches. React Router ranks the whole table at each `matchRoutes` (about 6 ms on
 * a phone for this table, measured under Lighthouse's 4× slow-down), and the first page's start and
 * the table's render ask for the same path: a table keeps the matches of its last few paths.
 */
export function routeMatches(routes: RouteObject[], pathname: string): Match[] {
  let kept = matchesByTable.get(routes)
  if (!kept) matchesByTable.set(routes, (kept = new Map()))
  let matches = kept.get(pathname)
  if (!matches) {
    matches = matchRoutes(routes, pathname) ?? []
    if (kept.size >= MATCHES_KEPT) kept.delete(kept.keys().next().value!)
    kept.set(pathname, matches)
  }
  return matches
}

/**
 * The path whose first page main.tsx has started: the table's first render does not start it again
 * (a request that failed would go out twice).
 */
let startedFirst: string | null = null

/** The first page's code and data, started before anything draws (main.tsx); settles once its data is in. */
export function startRoute(client: QueryClient, pathname: string): Promise<void> {
  startedFirst = pathname
  return start(routeMatches(appRoutes, pathname), client)
}

/**
 * A route table at the current location. As a navigation renders, the screens it needs and their data
 * are asked for together, before the first of them suspends, and the document takes the screen's
 * title. They are asked for once per navigation (per history entry): React renders a suspended
 * navigation again from here, and a screen whose code failed would be fetched again at every one of
 * those renders instead of showing its error.
 */
export function TableRoutes({ routes }: { routes: RouteObject[] }) {
  const location = useLocation()
  const client = useQueryClient()
  const matches = useMemo(() => routeMatches(routes, location.pathname), [routes, location.pathname])
  const started = useRef<string | null>(null)
  if (started.current !== location.key) {
    const startedByMain = started.current === null && routes === appRoutes && startedFirst === location.pathname
    started.current = location.key
    startedFirst = null
    if (!startedByMain) void start(matches, client)
  }
  useDocumentTitle(matches.map((m) => ({ handle: m.route.handle, params: m.params })))
  return useRoutes(routes, location)
}

/** The app's routes at the current location (main.tsx renders them in the browser router). */
export const AppRoutes = () => <TableRoutes routes={appRoutes} />
