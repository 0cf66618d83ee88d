import {
  PasswordInput,
  createTheme,
  defaultVariantColorsResolver,
  type CSSVariablesResolver,
  type MantineThemeComponent,
  type ModalProps,
  type NotificationProps,
  type VariantColorsResolver,
} from '@mantine/core'
import i18next from 'i18next'

/** Light variants (buttons, badges) with text two shades darker: 4.5:1 on their tinted background. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input)
  if (input.variant === 'light') {
    const color = input.color && input.color in input.theme.colors ? input.color : input.theme.primaryColor
    return { ...colors, color: `var(--mantine-color-${color}-9)` }
  }
  return colors
}

/**
 * Mantine toggles on mousedown and on Space only; Enter, which activates every other button,
 * is passed on as the mousedown its handler listens for.
 */
const passwordToggleProps = {
  tabIndex: 0,
  // read at each render (the theme is built once, before i18next is up), so it speaks the current language
  get 'aria-label'() {
    return i18next.isInitialized ? i18next.t('Show password') : 'Show password'
  },
  'aria-hidden': false,
  onKeyDown: (event: React.KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    event.currentTarget.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }))
  },
}

/**
 * The spec's window widths (section 9): the side menu collapses at 1024 px (md), tables become cards
 * and two columns become one below 720 px (sm), and the narrowest layouts start below 576 px (xs).
 * CSS modules cannot read these in a media query: theirs are written in the same em values.
 */
const breakpoints = { xs: '36em', sm: '45em', md: '64em', lg: '75em', xl: '88em' }

/** The spec's duration of a layout's movement (section 9), in milliseconds: the side menu sliding in and out. */
export const TRANSITION_MS = 350

export const theme = createTheme({
  breakpoints,
  variantColorResolver,
  components: {
    // every dialog's close button says what it does
    // a plain object, not Modal.extend(): importing Modal would put it (and its scroll area) in the entry
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> } satisfies MantineThemeComponent,
    // and so is a notification's (a plain object as well: the notifications load with the first one, app/notifications.tsx)
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<NotificationProps> } satisfies MantineThemeComponent,
    // the show-password toggle is a labelled toggle button in the tab order (Mantine hides it from
    // both keyboard and screen readers by default); aria-pressed tells whether the password shows
    PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleButtonProps: passwordToggleProps } }),
  },
  // a visitor who asked the system for reduced motion gets dialogs and menus without transitions
  respectReducedMotion: true,
  primaryColor: 'indigo',
  // shade 8 keeps white-on-primary buttons and primary links above 4.5:1 contrast
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '650' },
})

/** Dimmed and error text darker than Mantine's default, for WCAG AA contrast on light backgrounds. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    // field errors (text, input text and border) at 4.5:1 and more on white
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
})
