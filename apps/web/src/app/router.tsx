import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router'
import { SIGN_IN_PATHS } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { AccountRoute } from '../features/account/routes/account.tsx'
import { ConfirmRoute } from '../features/auth/routes/confirm.tsx'
import { ForgotPasswordRoute } from '../features/auth/routes/forgot-password.tsx'
import { AnalyticsLoginRoute, LoginRoute } from '../features/auth/routes/login.tsx'
import { LogoutRoute } from '../features/auth/routes/logout.tsx'
import { AnalyticsRegistrationRoute, RegistrationRoute } from '../features/auth/routes/registration.tsx'
import { SetPasswordRoute } from '../features/auth/routes/set-password.tsx'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { GroupKeysPage } from '../features/groups/components/GroupKeysPage.tsx'
import { GroupKeyInfoPage } from '../features/groups/components/GroupKeyInfoPage.tsx'
import { PreInfoPage } from '../features/groups/components/PreInfoPage.tsx'
import { DashboardPage } from '../features/licenses/components/DashboardPage.tsx'
import { StaffLicensePage } from '../features/staff/components/StaffLicensePage.tsx'
import { LicenseInfoRoute } from './routes/LicenseInfoRoute.tsx'
import { PaymentDocRoute } from '../features/transactions/routes/payment-doc.tsx'
import { AnonymousOnly, AppCatchAll, PlatformGate, PlatformIndex, RequireAuth } from './guards.tsx'
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

/** Section 2, "Entry and redirects" and "Sign-in family". */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <Navigate to={paths.platform('nuitrack')} replace /> },
      { path: routes.app, element: <Navigate to={paths.platform('nuitrack')} replace /> },

      // sign-in family
      { path: routes.login, element: <LoginRoute /> },
      { path: routes.analyticsLogin, element: <AnalyticsLoginRoute /> },
      { path: routes.faceMachineLogin, element: <RedirectKeep to={paths.analyticsLogin} /> },
      { path: routes.registration, element: <Anonymous><RegistrationRoute /></Anonymous> },
      { path: routes.analyticsRegistration, element: <AnalyticsRegistrationRoute /> },
      { path: routes.faceMachineRegistration, element: <RedirectKeep to={paths.analyticsRegistration} /> },
      { path: routes.forgotPassword, element: <Anonymous><ForgotPasswordRoute /></Anonymous> },
      { path: routes.setPassword, element: <Anonymous><SetPasswordRoute /></Anonymous> },
      { path: routes.confirm, element: <ConfirmRoute /> },
      { path: routes.registrationConfirm, element: <ConfirmRoute /> },
      { path: routes.logout, element: <LogoutRoute /> },
      // unknown paths under the sign-in family go to /app/
      ...SIGN_IN_PATHS.map((p) => ({ path: `/app/${p}/*`, element: <Navigate to={paths.root} replace /> })),

      { path: routes.faceFaceMachine, element: <Navigate to={paths.platform('face-machine')} replace /> },

      // signed-in pages
      {
        element: <Protected />,
        children: [
          { path: routes.account, element: <AccountRoute /> },
          { path: routes.groupKeys, element: <GroupKeysPage /> },
          { path: routes.groupKeyInfo, element: <GroupKeyInfoPage /> },
          { path: routes.paymentDoc, element: <PaymentDocRoute /> },
          { path: routes.staffPerpetual, element: <StaffLicensePage variant="perpetual" /> },
          { path: routes.staffSubscription, element: <StaffLicensePage variant="subscription" /> },
        ],
      },
      {
        path: routes.platform,
        element: <PlatformGate />,
        children: [
          { index: true, element: <PlatformIndex /> },
          {
            element: <Protected />,
            children: [
              { path: routes.dashboard, element: <DashboardPage /> },
              { path: routes.licenseInfo, element: <LicenseInfoRoute /> },
              { path: routes.preInfo, element: <PreInfoPage /> },
            ],
          },
        ],
      },

      { path: '/app/*', element: <AppCatchAll /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]

/** The browser router of the app (main.tsx renders it). */
export const router = createBrowserRouter(appRoutes)
