import { Loader, type MantineSize } from '@mantine/core'

/**
 * A spinner a screen reader names: Mantine's Loader is a plain span, whose `aria-label` is read only
 * with a role, so it is an indeterminate progress bar named by `label`. A spinner beside text that
 * already says what is happening stays Mantine's plain Loader, with no name of its own.
 */
export function Spinner({ label, size }: { label: string; size?: MantineSize }) {
  return <Loader size={size} role="progressbar" aria-label={label} />
}
