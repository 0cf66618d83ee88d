import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import '@mantine/core/styles.layer.css'
import '@mantine/notifications/styles.layer.css'
import './app/theme.css'
import { AppProviders } from './app/providers.tsx'
import { appRoutes } from './app/router.tsx'
import { makeQueryClient } from './lib/query-client.ts'

const client = makeQueryClient()
const router = createBrowserRouter(appRoutes(client))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={client}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
)
