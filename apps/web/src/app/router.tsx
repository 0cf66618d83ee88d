import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router'
import { PLATFORM_TITLES, SIGN_IN_PATHS, isPlatform } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { ConfirmRoute } from '../features/auth/routes/confirm.tsx'
import { ForgotPasswordRoute } from '../features/auth/routes/forgot-password.tsx'
import { AnalyticsLoginRoute, LoginRoute } from '../features/auth/routes/login.tsx'
import { LogoutRoute } from '../features/auth/routes/logout.tsx'
import { AnalyticsRegistrationRoute, RegistrationRoute } from '../features/auth/routes/registration.tsx'
import { SetPasswordRoute } from '../features/auth/routes/set-password.tsx'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { GroupKeysPage } from '../features/groups/routes/group-keys.tsx'
import { GroupKeyInfoPage } from '../features/groups/routes/group-key-info.tsx'
import { PreInfoPage } from '../features/groups/routes/pre-info.tsx'
import { DashboardPage } from '../features/licenses/routes/dashboard.tsx'
import { StaffLicensePage } from '../features/staff/routes/staff-license.tsx'
import { LicenseInfoRoute } from './routes/LicenseInfoRoute.tsx'
import { AccountScreen } from './routes/AccountScreen.tsx'
import { BasketGate } from './routes/BasketGate.tsx'
import { BasketIndexRoute, LicenseSelectionRoute } from '../features/basket/routes/license-selection.tsx'
import { CheckoutRoute, SubscriptionCheckoutRoute } from '../features/basket/routes/checkout.tsx'
import { UpgradeCheckoutGate } from './routes/UpgradeCheckoutGate.tsx'
import { LicensePurchaseSuccessRoute } from '../features/basket/routes/license-purchase-success.tsx'
import { AddFundsRoute } from '../features/balance/routes/add-funds.tsx'
import { BalancePurchaseSuccessRoute } from '../features/balance/routes/balance-purchase-success.tsx'
import { PaymentDocRoute } from '../features/transactions/routes/payment-doc.tsx'
import { ServiceRedirectRoute } from '../features/support/routes/service-redirect.tsx'
import { AnonymousOnly, AppCatchAll, PlatformGate, PlatformIndex, RequireAuth } from './guards.tsx'
import { NOT_FOUND_TITLE, titled } from './document-title.ts'
import { RootLayout } from './root-layout.tsx'
import { Shell } from './shell/Shell.tsx'

/** Redirect keeping the query string and router state (the platform travels along). */
function RedirectKeep({ to }: { to: string }) {
  const location = useLocation()
  return <Navigate to={`${to}${location.search}`} state={location.state} replace />
}

function Anonymous({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation()
  return <AnonymousOnly key={pathname}>{children}</AnonymousOnly>
}

function Protected() {
  return (
    <RequireAuth>
      <Shell />
    </RequireAuth>
  )
}

const platformTitle = (p: string | undefined) => (isPlatform(p) ? PLATFORM_TITLES[p] : null)

/** Section 2, "Entry and redirects" and "Sign-in family". Every path comes from the table in config/paths.ts. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <Navigate to={paths.platform('nuitrack')} replace /> },
      { path: routes.root, element: <Navigate to={paths.platform('nuitrack')} replace /> },

      // sign-in family
      { path: routes.login, element: <LoginRoute />, handle: titled('Sign in') },
      { path: routes.analyticsLogin, element: <AnalyticsLoginRoute />, handle: titled('Sign in to Nuitrack Analytics') },
      { path: routes.faceMachineLogin, element: <RedirectKeep to={paths.analyticsLogin} /> },
      {
        path: routes.registration,
        element: (
          <Anonymous>
            <RegistrationRoute />
          </Anonymous>
        ),
        handle: titled('Create an account'),
      },
      { path: routes.analyticsRegistration, element: <AnalyticsRegistrationRoute />, handle: titled('Nuitrack Analytics registration') },
      { path: routes.faceMachineRegistration, element: <RedirectKeep to={paths.analyticsRegistration} /> },
      {
        path: routes.forgotPassword,
        element: (
          <Anonymous>
            <ForgotPasswordRoute />
          </Anonymous>
        ),
        handle: titled('Forgot password'),
      },
      {
        path: routes.setPassword,
        element: (
          <Anonymous>
            <SetPasswordRoute />
          </Anonymous>
        ),
        handle: titled('Set a new password'),
      },
      { path: routes.confirm, element: <ConfirmRoute />, handle: titled('Confirm your e-mail') },
      { path: routes.registrationConfirm, element: <ConfirmRoute />, handle: titled('Confirm your e-mail') },
      { path: routes.logout, element: <LogoutRoute />, handle: titled('Signing out') },
      // unknown paths under the sign-in family go to /app/
      ...SIGN_IN_PATHS.map((p) => ({ path: `/app/${p}/*`, element: <Navigate to={paths.root} replace /> })),

      { path: routes.faceFaceMachine, element: <Navigate to={paths.platform('face-machine')} replace /> },

      // signed-in pages
      {
        element: <Protected />,
        children: [
          { path: routes.account, element: <AccountScreen />, handle: titled('Account') },
          { path: routes.groupKeys, element: <GroupKeysPage />, handle: titled('Group keys') },
          { path: routes.groupKeyInfo, element: <GroupKeyInfoPage />, handle: titled(({ id }) => `Group key #${id}`) },
          { path: routes.paymentDoc, element: <PaymentDocRoute />, handle: titled('Payment documents') },
          { path: routes.serviceRedirect, element: <ServiceRedirectRoute />, handle: titled('Opening the service') },
          { path: routes.staffPerpetual, element: <StaffLicensePage variant="perpetual" />, handle: titled('Custom perpetual licenses') },
          { path: routes.staffSubscription, element: <StaffLicensePage variant="subscription" />, handle: titled('Custom subscription licenses') },
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
            children: [
              {
                path: routes.dashboard,
                element: <DashboardPage />,
                handle: titled(({ platform }) => platformTitle(platform) && `${platformTitle(platform)} dashboard`),
              },
              {
                path: routes.licenseInfo,
                element: <LicenseInfoRoute />,
                handle: titled(({ platform, id }) => platformTitle(platform) && `License #${id} · ${platformTitle(platform)}`),
              },
              {
                path: routes.preInfo,
                element: <PreInfoPage />,
                handle: titled(({ platform }) => platformTitle(platform) && `New license · ${platformTitle(platform)}`),
              },
              {
                element: <BasketGate />,
                children: [
                  {
                    path: routes.basket,
                    element: <BasketIndexRoute />,
                    handle: titled(({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.licenseSelection,
                    element: <LicenseSelectionRoute />,
                    handle: titled(({ platform }) => platformTitle(platform) && `Buy · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.customBuilder,
                    element: <LicenseSelectionRoute builder />,
                    handle: titled(({ platform }) => platformTitle(platform) && `Build your own · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.checkout,
                    element: <CheckoutRoute />,
                    handle: titled(({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`),
                  },
                  {
                    path: routes.subscriptionCheckout,
                    element: <SubscriptionCheckoutRoute />,
                    handle: titled(({ platform }) => platformTitle(platform) && `Checkout · ${platformTitle(platform)}`),
                  },
                ],
              },
              {
                // outside the basket's gate: Face Machine has no basket but has its trial's upgrade
                path: routes.upgradeCheckout,
                element: <UpgradeCheckoutGate />,
                handle: titled(({ platform }) => platformTitle(platform) && `Upgrade · ${platformTitle(platform)}`),
              },
              {
                path: routes.licensePurchaseSuccess,
                element: <LicensePurchaseSuccessRoute />,
                handle: titled(({ platform }) => platformTitle(platform) && `Purchase complete · ${platformTitle(platform)}`),
              },
              { path: routes.addFunds, element: <AddFundsRoute />, handle: titled('Add funds') },
              { path: routes.balancePurchaseSuccess, element: <BalancePurchaseSuccessRoute />, handle: titled('Thank you for your payment') },
            ],
          },
        ],
      },

      { path: '/app/*', element: <AppCatchAll />, handle: titled(NOT_FOUND_TITLE) },
      { path: '*', element: <NotFoundRoute />, handle: titled(NOT_FOUND_TITLE) },
    ],
  },
]

/** The browser router of the app (main.tsx renders it). */
export const router = createBrowserRouter(appRoutes)
