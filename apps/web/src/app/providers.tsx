import { useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { I18nextProvider } from 'react-i18next'
import { makeQueryClient } from '../lib/query-client.ts'
import { initI18n } from './i18n.ts'
import { LazyNotifications } from './notifications.tsx'
import { PortalMantineProvider } from './mantine-provider.tsx'
import { theme } from './theme.ts'

export const createQueryClient = makeQueryClient

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? makeQueryClient())
  const i18n = initI18n()
  return (
    <I18nextProvider i18n={i18n}>
      <PortalMantineProvider theme={theme}>
        <QueryClientProvider client={client}>
          <LazyNotifications position="top-right" />
          {children}
        </QueryClientProvider>
      </PortalMantineProvider>
    </I18nextProvider>
  )
}

export const Providers = ({ children, client }: { children: ReactNode; client?: QueryClient }) => <AppProviders queryClient={client}>{children}</AppProviders>
