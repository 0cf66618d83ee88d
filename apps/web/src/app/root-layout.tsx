import { Outlet, ScrollRestoration } from 'react-router'
import { ErrorModal } from '../features/errors/components/ErrorModal.tsx'
import { useDocumentTitleFromRoutes } from './document-title.ts'

export function RootLayout() {
  useDocumentTitleFromRoutes()
  return (
    <>
      <ScrollRestoration />
      <Outlet />
      <ErrorModal />
    </>
  )
}
