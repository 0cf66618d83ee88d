import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Alert, Anchor, Badge, Button, MantineProvider, PasswordInput, Text, TextInput, Title } from '@mantine/core'
import { PortalMantineProvider } from './mantine-provider.tsx'
import { MANTINE_THEME_CSS, mantineThemeCss } from './styles/mantine-theme-css.ts'
import { cssVariablesResolver, theme } from './theme.ts'

/** A little of everything the theme styles: variants, colours, the password toggle's props, errors. */
const sample = (
  <>
    <Title order={1}>Licenses</Title>
    <Text c="dimmed" size="sm">
      Choose a license
    </Text>
    <Anchor href="/app/">Home</Anchor>
    <Button>Buy</Button>
    <Button variant="light" color="red">
      Cancel
    </Button>
    <Badge variant="light">Active</Badge>
    <Alert id="hold" color="yellow" title="On hold">
      Pay within 15 minutes
    </Alert>
    <TextInput id="email" label="E-mail" error="Enter your e-mail" />
    <PasswordInput id="password" label="Password" />
  </>
)

describe('PortalMantineProvider', () => {
  it('draws components exactly as MantineProvider does, without its style elements', () => {
    const mantine = renderToStaticMarkup(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        {sample}
      </MantineProvider>,
    )
    const ours = renderToStaticMarkup(<PortalMantineProvider theme={theme}>{sample}</PortalMantineProvider>)
    expect(mantine).toMatch(/<style data-mantine-styles/)
    expect(ours).not.toMatch(/<style/)
    expect(ours).toContain('Enter your e-mail')
    expect(ours).toBe(mantine.replace(/<style[^>]*>[\s\S]*?<\/style>/g, ''))
  })

  it('marks the document light and, as the theme asks, respecting reduced motion', () => {
    const root = document.documentElement
    root.removeAttribute('data-mantine-color-scheme')
    root.removeAttribute('data-respect-reduced-motion')
    render(<PortalMantineProvider theme={theme}>{sample}</PortalMantineProvider>)
    expect(root.getAttribute('data-mantine-color-scheme')).toBe('light')
    expect(root.getAttribute('data-respect-reduced-motion')).toBe('true')
  })

  afterEach(() => {
    vi.restoreAllMocks()
    localStorage.clear()
  })

  it('draws light without reading or writing localStorage, whatever an old visit stored there', () => {
    localStorage.setItem('mantine-color-scheme-value', 'dark')
    const get = vi.spyOn(Storage.prototype, 'getItem')
    const set = vi.spyOn(Storage.prototype, 'setItem')
    render(<PortalMantineProvider theme={theme}>{sample}</PortalMantineProvider>)
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light')
    expect(get).not.toHaveBeenCalled()
    expect(set).not.toHaveBeenCalled()
  })
})

describe('mantine-theme.css', () => {
  it('is what MantineProvider writes for the theme today (else run npm run gen:mantine-css)', () => {
    const css = mantineThemeCss()
    // the primary colour and the darker dimmed text of the theme, and the responsive helper classes
    expect(css).toContain('--mantine-primary-color-filled: var(--mantine-color-indigo-filled)')
    expect(css).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)')
    expect(css).toContain('.mantine-hidden-from-sm')
    expect(readFileSync(MANTINE_THEME_CSS, 'utf8')).toBe(css)
  })
})
