import { Navigate, Outlet, createBrowserRouter, useLocation, type LoaderFunction, type RouteObject } from 'react-router'
import type { QueryClient } from '@tanstack/react-query'
import { PLATFORM_TITLES, SIGN_IN_PATHS, isPlatform } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { isLogged } from '../lib/session.ts'
import { prefetchDashboard, prefetchSignedIn } from './prefetch.ts'
import { AnonymousOnly, AppCatchAll, PlatformGate, PlatformIndex, RequireAuth } from './guards.tsx'
import { NOT_FOUND_TITLE, titled } from './document-title.ts'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { RootLayout } from './root-layout.tsx'
import { RouteError, RouteLoading } from './route-fallbacks.tsx'
import { BasketGate } from './routes/BasketGate.tsx'

/*
 * Every screen is a lazy route (React Router's `lazy`): the entry holds the providers, the guards and
 * this table; each screen's code (and the signed-in shell's) is its own chunk, fetched when a path
 * first matches it. The sign-in family thus loads without the shell, dashboards, staff, basket or PDF
 * code (docs/decisions.md, "A light first load").
 */
type Lazy = NonNullable<RouteObject['lazy']>
/** A lazy route answering the element that `render` makes from the loaded module. */
const screen =
  <M,>(load: () => Promise<M>, render: (m: M) => React.ReactNode): Lazy =>
  async () => ({ element: render(await load()) })

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
 * Loaders that start the first requests of a signed-in screen as its path matches, while its code
 * loads (app/prefetch.ts, in the entry: a chunk of its own would cost the requests a round trip).
 * They answer at once: nothing waits for the data.
 */
interface Prefetch {
  signedIn: LoaderFunction
  dashboard: LoaderFunction
}
const noPrefetch: Prefetch = { signedIn: () => null, dashboard: () => null }
function prefetchLoaders(client: QueryClient): Prefetch {
  return {
    // decided as the navigation starts: signed out, the guard sends the visitor to the login screen
    signedIn: () => {
      if (isLogged()) prefetchSignedIn(client)
      return null
    },
    dashboard: ({ params }) => {
      const { platform } = params
      if (isLogged() && isPlatform(platform)) prefetchDashboard(client, platform)
      return null
    },
  }
}

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
const shell: Lazy = screen(
  () => import('./shell/Shell.tsx'),
  (m) => <m.Shell />,
)

const confirm = screen(
  () => import('../features/auth/routes/confirm.tsx'),
  (m) => <m.ConfirmRoute />,
)

const platformTitle = (p: string | undefined) => (isPlatform(p) ? PLATFORM_TITLES[p] : null)

/** Section 2, "Entry and redirects" and "Sign-in family". Every path comes from the table in config/paths.ts. */
const buildRoutes = (prefetch: Prefetch): RouteObject[] => [
  {
    element: <RootLayout />,
    // the first screen's chunk is on its way; a chunk that fails to load (or a screen that throws) shows the error screen
    hydrateFallbackElement: <RouteLoading />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to={paths.platform('nuitrack')} replace /> },
      { path: routes.root, element: <Navigate to={paths.platform('nuitrack')} replace /> },

      // sign-in family
      { path: routes.login, lazy: screen(auth.login, (m) => <m.LoginRoute />), handle: titled('Sign in') },
      { path: routes.analyticsLogin, lazy: screen(auth.login, (m) => <m.AnalyticsLoginRoute />), handle: titled('Sign in to Nuitrack Analytics') },
      { path: routes.faceMachineLogin, element: <RedirectKeep to={paths.analyticsLogin} /> },
      {
        path: routes.registration,
        lazy: screen(auth.registration, (m) => (
          <Anonymous>
            <m.RegistrationRoute />
          </Anonymous>
        )),
        handle: titled('Create an account'),
      },
      {
        path: routes.analyticsRegistration,
        lazy: screen(auth.registration, (m) => <m.AnalyticsRegistrationRoute />),
        handle: titled('Nuitrack Analytics registration'),
      },
      { path: routes.faceMachineRegistration, element: <RedirectKeep to={paths.analyticsRegistration} /> },
      {
        path: routes.forgotPassword,
        lazy: screen(
          () => import('../features/auth/routes/forgot-password.tsx'),
          (m) => (
            <Anonymous>
              <m.ForgotPasswordRoute />
            </Anonymous>
          ),
        ),
        handle: titled('Forgot password'),
      },
      {
        path: routes.setPassword,
        lazy: screen(
          () => import('../features/auth/routes/set-password.tsx'),
          (m) => (
            <Anonymous>
              <m.SetPasswordRoute />
            </Anonymous>
          ),
        ),
        handle: titled('Set a new password'),
      },
      { path: routes.confirm, lazy: confirm, handle: titled('Confirm your e-mail') },
      { path: routes.registrationConfirm, lazy: confirm, handle: titled('Confirm your e-mail') },
      {
        path: routes.logout,
        lazy: screen(
          () => import('../features/auth/routes/logout.tsx'),
          (m) => <m.LogoutRoute />,
        ),
        handle: titled('Signing out'),
      },
      // unknown paths under the sign-in family go to /app/
      ...SIGN_IN_PATHS.map((p) => ({ path: `/app/${p}/*`, element: <Navigate to={paths.root} replace /> })),

      { path: routes.faceFaceMachine, element: <Navigate to={paths.platform('face-machine')} replace /> },

      // signed-in pages
      {
        element: <Protected />,
        loader: prefetch.signedIn,
        children: [
          {
            lazy: shell,
            children: [
              {
                path: routes.account,
                lazy: screen(
                  () => import('./routes/AccountScreen.tsx'),
                  (m) => <m.AccountScreen />,
                ),
                handle: titled('Account'),
              },
              {
                path: routes.groupKeys,
                lazy: screen(
                  () => import('../features/groups/routes/group-keys.tsx'),
                  (m) => <m.GroupKeysPage />,
                ),
                handle: titled('Group keys'),
              },
              {
                path: routes.groupKeyInfo,
                lazy: screen(
                  () => import('../features/groups/routes/group-key-info.tsx'),
                  (m) => <m.GroupKeyInfoPage />,
                ),
                handle: titled(({ id }) => `Group key #${id}`),
              },
              {
                path: routes.paymentDoc,
                lazy: screen(
                  () => import('../features/transactions/routes/payment-doc.tsx'),
                  (m) => <m.PaymentDocRoute />,
                ),
                handle: titled('Payment documents'),
              },
              {
                path: routes.serviceRedirect,
                lazy: screen(
                  () => import('../features/support/routes/service-redirect.tsx'),
                  (m) => <m.ServiceRedirectRoute />,
                ),
                handle: titled('Opening the service'),
              },
              {
                path: routes.staffPerpetual,
                lazy: screen(staffLicense, (m) => <m.StaffLicensePage variant="perpetual" />),
                handle: titled('Custom perpetual licenses'),
              },
              {
                path: routes.staffSubscription,
                lazy: screen(staffLicense, (m) => <m.StaffLicensePage variant="subscription" />),
                handle: titled('Custom subscription licenses'),
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
            loader: prefetch.signedIn,
            children: [
              {
                lazy: shell,
                children: [
                  {
                    path: routes.dashboard,
                    loader: prefetch.dashboard,
                    lazy: screen(
                      () => import('../features/licenses/routes/dashboard.tsx'),
                      (m) => <m.DashboardPage />,
                    ),
                    handle: titled(({ platform }) => platformTitle(platform) && `${platformTitle(platform)} dashboard`),
                  },
                  {
                    path: routes.licenseInfo,
                    lazy: screen(
                      () => import('./routes/LicenseInfoRoute.tsx'),
                      (m) => <m.LicenseInfoRoute />,
                    ),
                    handle: titled(({ platform, id }) => platformTitle(platform) && `License #${id} · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.preInfo,
                    lazy: screen(
                      () => import('../features/groups/routes/pre-info.tsx'),
                      (m) => <m.PreInfoPage />,
                    ),
                    handle: titled(({ platform }) => platformTitle(platform) && `New license · ${platformTitle(platform)}`),
                  },
                  {
                    element: <BasketGate />,
                    children: [
                      {
                        path: routes.basket,
                        lazy: screen(basket.selection, (m) => <m.BasketIndexRoute />),
                        handle: titled(({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`),
                      },
                      {
                        path: routes.licenseSelection,
                        lazy: screen(basket.selection, (m) => <m.LicenseSelectionRoute />),
                        handle: titled(({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`),
                      },
                      {
                        path: routes.customBuilder,
                        lazy: screen(basket.selection, (m) => <m.LicenseSelectionRoute builder />),
                        handle: titled(({ platform }) => platformTitle(platform) && `Build your own · ${platformTitle(platform)}`),
                      },
                      {
                        path: routes.checkout,
                        lazy: screen(basket.checkout, (m) => <m.CheckoutRoute />),
                        handle: titled(({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`),
                      },
                      {
                        path: routes.subscriptionCheckout,
                        lazy: screen(basket.checkout, (m) => <m.SubscriptionCheckoutRoute />),
                        handle: titled(({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`),
                      },
                    ],
                  },
                  {
                    // outside the basket's gate: Face Machine has no basket but has its trial's upgrade
                    path: routes.upgradeCheckout,
                    lazy: screen(
                      () => import('./routes/UpgradeCheckoutGate.tsx'),
                      (m) => <m.UpgradeCheckoutGate />,
                    ),
                    handle: titled(({ platform }) => platformTitle(platform) && `Upgrade · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.licensePurchaseSuccess,
                    lazy: screen(
                      () => import('../features/basket/routes/license-purchase-success.tsx'),
                      (m) => <m.LicensePurchaseSuccessRoute />,
                    ),
                    handle: titled(({ platform }) => platformTitle(platform) && `Purchase complete · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.addFunds,
                    lazy: screen(
                      () => import('../features/balance/routes/add-funds.tsx'),
                      (m) => <m.AddFundsRoute />,
                    ),
                    handle: titled('Add funds'),
                  },
                  {
                    path: routes.balancePurchaseSuccess,
                    lazy: screen(
                      () => import('../features/balance/routes/balance-purchase-success.tsx'),
                      (m) => <m.BalancePurchaseSuccessRoute />,
                    ),
                    handle: titled('Thank you for your payment'),
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

/** The route table, without prefetching (the tests match and render paths against it). */
export const appRoutes = buildRoutes(noPrefetch)

/** The browser router of the app (main.tsx renders it), prefetching into the app's query client. */
export const createAppRouter = (client: QueryClient) => createBrowserRouter(buildRoutes(prefetchLoaders(client)))
