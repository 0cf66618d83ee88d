/**
 * The CSS that MantineProvider would write into the page for our theme (its CSS variables, less
 * those equal to Mantine's defaults, and its responsive helper classes), worked out here at build
 * time from the same theme: `npm run gen:mantine-css` writes it to mantine-theme.css, which the app
 * loads instead (app/mantine-provider.tsx says why). Node and tests only: nothing in the app imports it.
 */
import { join } from 'node:path'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { MantineProvider } from '@mantine/core'
import { cssVariablesResolver, theme } from '../theme.ts'

export const MANTINE_THEME_CSS = join(import.meta.dirname, 'mantine-theme.css')

export function mantineThemeCss(): string {
  const markup = renderToStaticMarkup(createElement(MantineProvider, { theme, cssVariablesResolver, defaultColorScheme: 'light' }))
  const styles = [...markup.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!)
  if (styles.length !== 2) throw new Error(`MantineProvider wrote ${styles.length} style elements, not its variables and its classes`)
  return `/* Written by \`npm run gen:mantine-css\` (apps/web/src/app/styles/mantine-theme-css.ts) from app/theme.ts: do not edit. */\n${styles.join('\n')}\n`
}
