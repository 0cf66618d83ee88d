/**
 * `npm run gen:mantine-css`: writes src/app/styles/mantine-theme.css, the theme's CSS that
 * MantineProvider would otherwise work out in every visitor's browser (app/mantine-provider.tsx).
 * A theme change without it fails mantine-provider.test.tsx until this script runs again.
 */
import { writeFileSync } from 'node:fs'
import { MANTINE_THEME_CSS, mantineThemeCss } from './src/app/styles/mantine-theme-css.ts'

const css = mantineThemeCss()
writeFileSync(MANTINE_THEME_CSS, css)
console.log(`${MANTINE_THEME_CSS}: ${css.length} characters`)
