import { useState, type ReactNode } from 'react'
import { MantineProvider } from '@mantine/core'
import { Notifications } from '@mantine/notifications'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { I18nextProvider } from 'react-i18next'
import { makeQueryClient } from '../lib/query-client.ts'
import { initI18n } from './i18n.ts'
import { cssVariablesResolver, theme } from './theme.ts'

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? makeQueryClient())
  const i18n = initI18n()
  return (
    <I18nextProvider i18n={i18n}>
      {/* the portal is drawn light only: nothing offers another scheme */}
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" forceColorScheme="light">
        <QueryClientProvider client={client}>
          <Notifications position="top-right" />
          {children}
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  )
}
