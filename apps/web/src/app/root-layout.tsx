import { Outlet, ScrollRestoration } from 'react-router'
import { ErrorModal } from '../features/errors/components/ErrorModal.tsx'

export function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
      <ErrorModal />
    </>
  )
}
