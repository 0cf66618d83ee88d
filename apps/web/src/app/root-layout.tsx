import { lazy, Suspense, useState } from 'react'
import { Outlet, useLocation } from 'react-router'
import { useErrorModalState } from '../lib/error-store.ts'
import { RouteErrorBoundary, RouteLoading } from './route-fallbacks.tsx'
import { useScrollRestoration } from './scroll-restoration.ts'

/** The error dialog and Mantine's Modal under it load with the first error: no screen shows it on arrival. */
const ErrorModal = lazy(() => import('../features/errors/components/ErrorModal.tsx').then((m) => ({ default: m.ErrorModal })))

/** Mounts the error dialog once an error has been reported, and keeps it (its closing transition, the next error). */
function ErrorModalOnDemand() {
  const state = useErrorModalState()
  const [needed, setNeeded] = useState(false)
  if (state !== null && !needed) setNeeded(true)
  return needed ? (
    <Suspense fallback={null}>
      <ErrorModal />
    </Suspense>
  ) : null
}

/**
 * Every page's frame: the scroll position, the error dialog, and the screen, which shows the loading
 * screen while the first page's code loads and the error screen if a screen throws or its code fails
 * to load, until the next navigation.
 */
/** Mounted with the first screen: a position restored on a reload needs the page it belongs to, not the loading screen. */
function ScrollRestoration() {
  useScrollRestoration()
  return null
}

export function RootLayout() {
  const { key } = useLocation()
  return (
    <>
      <RouteErrorBoundary resetKey={key}>
        <Suspense fallback={<RouteLoading />}>
          <Outlet />
          <ScrollRestoration />
        </Suspense>
      </RouteErrorBoundary>
      <ErrorModalOnDemand />
    </>
  )
}
