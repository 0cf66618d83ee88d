import { lazy, Suspense, useState } from 'react'
import { Outlet, ScrollRestoration } from 'react-router'
import { useErrorModalState } from '../lib/error-store.ts'
import { useDocumentTitleFromRoutes } from './document-title.ts'

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

export function RootLayout() {
  useDocumentTitleFromRoutes()
  return (
    <>
      <ScrollRestoration />
      <Outlet />
      <ErrorModalOnDemand />
    </>
  )
}
