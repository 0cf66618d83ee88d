import { lazy, Suspense, useState } from 'react'
import { Outlet, ScrollRestoration, useMatches } from 'react-router'
import { useErrorModalState } from '../lib/error-store.ts'
import { useDocumentTitle } from './document-title.ts'
import { RouteLoading } from './route-fallbacks.tsx'

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
 * Every page's frame: the document's title from the matched routes, React Router's scroll
 * restoration, the error dialog, and the screen (the loading screen while a part of it that loads on
 * demand arrives).
 */
export function RootLayout() {
  useDocumentTitle(useMatches())
  return (
    <>
      <Suspense fallback={<RouteLoading />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
      <ErrorModalOnDemand />
    </>
  )
}
