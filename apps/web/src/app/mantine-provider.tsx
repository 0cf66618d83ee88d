import { useMemo, type ReactNode } from 'react'
import { MantineContext, MantineThemeProvider, useProviderColorScheme, type MantineColorSchemeManager, type MantineThemeOverride } from '@mantine/core'
import { useIsomorphicEffect } from '@mantine/hooks'
import { cssVariablesResolver } from './theme.ts'

const getRootElement = () => document.documentElement

/**
 * The portal is drawn light only: nothing offers another scheme. Mantine's default manager reads a
 * stored choice from localStorage as the app starts, and a page's first localStorage access costs
 * 1–10 ms of main thread in Chromium here: on the sign-in screens it was the only one (signed-in
 * pages read localStorage later, for the shell's tour). This one stores nothing and answers light.
 */
const lightOnly: MantineColorSchemeManager = {
  get: () => 'light',
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
}

/**
 * Mantine's provider without its two `<style>` elements. MantineProvider works out the theme's CSS
 * variables in the browser on every page load: once for Mantine's default theme as its module is
 * evaluated, and again for ours as it first renders: some 40 ms of main thread in Chromium here,
 * before anything shows. The same CSS is written at build time instead (app/styles/mantine-theme.css,
 * by `npm run gen:mantine-css`), and this provider gives the components the same context.
 * mantine-provider.test.tsx holds the two to Mantine's own: the file to what MantineProvider would
 * write, and components' markup to what they draw under MantineProvider.
 */
export function PortalMantineProvider({ theme, children }: { theme: MantineThemeOverride; children: ReactNode }) {
  const { colorScheme, setColorScheme, clearColorScheme } = useProviderColorScheme({
    defaultColorScheme: 'light',
    forceColorScheme: undefined,
    manager: lightOnly,
    getRootElement,
  })
  // as MantineProvider: a visitor who asked the system for reduced motion gets no transitions
  useIsomorphicEffect(() => {
    if (theme.respectReducedMotion) getRootElement().setAttribute('data-respect-reduced-motion', 'true')
  }, [theme.respectReducedMotion])
  const context = useMemo(
    () => ({
      colorScheme,
      setColorScheme,
      clearColorScheme,
      getRootElement,
      classNamesPrefix: 'mantine',
      cssVariablesResolver,
      cssVariablesSelector: ':root',
      withStaticClasses: true,
    }),
    [colorScheme, setColorScheme, clearColorScheme],
  )
  return (
    <MantineContext.Provider value={context}>
      <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>
    </MantineContext.Provider>
  )
}
