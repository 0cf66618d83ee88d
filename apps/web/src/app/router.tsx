import type { ReactNode } from 'react'
import { Navigate, Outlet, useLocation, type LoaderFunction, type RouteObject } from 'react-router'
import type { QueryClient } from '@tanstack/react-query'
import { PLATFORM_TITLES, SIGN_IN_PATHS, isPlatform } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { isLogged } from '../lib/session.ts'
import { prefetchSignedIn } from './prefetch.ts'
import { AnonymousOnly, AppCatchAll, PlatformGate, PlatformIndex, RequireAuth } from './guards.tsx'
import { NOT_FOUND_TITLE, titled, type TitleHandle } from './document-title.ts'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { RootLayout } from './root-layout.tsx'
import { RouteError, RouteLoading } from './route-fallbacks.tsx'

/*
 * React Router's data router: the entry holds the providers, the guards and this table; each screen's
 * code (and the signed-in shell's) is a lazy route, fetched when a path first matches it, so the
 * sign-in family loads without the shell, dashboards, staff, basket or PDF code. Loaders start a
 * signed-in screen's first requests while its code loads; the screens read the answers from the
 * query cache.
 */

/** A screen's route parts: its element, from a lazy-loaded module, and a handle that names it. */
function screen<M>(load: () => Promise<M>, render: (module: M) => ReactNode, title?: TitleHandle['title']): Pick<RouteObject, 'lazy' | 'handle'> {
  return { lazy: async () => ({ element: render(await load()) }), ...(title ? { handle: titled(title) } : {}) }
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

/** Redirect keeping the query string and router state (the platform travels along). */
function RedirectKeep({ to }: { to: string }) {
  const location = useLocation()
  return <Navigate to={`${to}${location.search}`} state={location.state} replace />
}

function Anonymous({ children }: { children: ReactNode }) {
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

/**
 * The route table. Its loaders start the first requests of a signed-in screen into `client`, the
 * query cache the screens read, and return at once: the screen draws as soon as its code is in, with
 * its loading states until the answers come (and a failure is the screen's to show). Signed out they
 * ask for nothing: the guard sends the visitor to the login screen.
 */
export function appRoutes(client: QueryClient): RouteObject[] {
  /** Every signed-in screen draws the profile (the shell's name and balance). */
  const signedInData: LoaderFunction = () => {
    if (isLogged()) void prefetchSignedIn(client)
    return null
  }
  /** A dashboard: its first page of rows with the tab counts, the groups and the license total (a chunk of its own, app/prefetch-dashboard.ts). */
  const dashboardData: LoaderFunction = ({ params: { platform } }) => {
    if (isLogged() && isPlatform(platform))
      import('./prefetch-dashboard.ts').then(
        (m) => m.prefetchDashboard(client, platform),
        () => undefined,
      )
    return null
  }
  const protectedRoute = { element: <Protected />, loader: signedInData }

  return [
    {
      id: 'root',
      element: <RootLayout />,
      errorElement: <RouteError />,
      HydrateFallback: RouteLoading,
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
          path: routes.emailRevert,
          ...screen(
            () => import('../features/auth/routes/email-revert.tsx'),
            (m) => <m.EmailRevertRoute />,
            'Undo the e-mail change',
          ),
        },
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
        {
          path: routes.invitation,
          ...screen(
            () => import('../features/orgs/routes/invitation.tsx'),
            (m) => <m.InvitationPage />,
            'Invitation',
          ),
        },

        // signed-in pages
        {
          ...protectedRoute,
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
                  path: routes.members,
                  ...screen(
                    () => import('../features/orgs/routes/members.tsx'),
                    (m) => <m.MembersPage />,
                    'Members',
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
                  // the charts library (recharts) is this screen's chunk only: no other page loads it
                  path: routes.fleet,
                  ...screen(
                    () => import('../features/fleet/routes/fleet.tsx'),
                    (m) => <m.FleetRoute />,
                    'Fleet and spend',
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
              ...protectedRoute,
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
                      ),
                      loader: dashboardData,
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
                      path: routes.renewalPayment,
                      ...screen(
                        () => import('../features/licenses/routes/renewal-payment.tsx'),
                        (m) => <m.RenewalPaymentPage />,
                        ({ platform, id }) => platformTitle(platform) && `Renewal payment · License #${id}`,
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
}
