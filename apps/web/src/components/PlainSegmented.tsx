import { useId } from 'react'

/**
 * Mantine's `SegmentedControl` class names (its `SegmentedControl.classes`, with the static
 * `mantine-SegmentedControl-*` names), so Mantine's stylesheet (sign-in.css) draws these elements;
 * PlainSegmented.test.tsx holds them to Mantine's own.
 */
export const SEGMENTED_CLASSES = {
  root: 'm_cf365364 mantine-SegmentedControl-root',
  control: 'm_69686b9b mantine-SegmentedControl-control',
  input: 'm_1714d588 mantine-SegmentedControl-input',
  label: 'm_1738fcb2 mantine-SegmentedControl-label',
  innerLabel: 'm_78882f40 mantine-SegmentedControl-innerLabel',
} as const

export interface PlainSegmentedProps {
  /** the group's accessible name */
  'aria-label': string
  value: string
  onChange: (value: string) => void
  data: readonly { value: string; label: string }[]
  className?: string
}

/**
 * A segmented control drawn as Mantine's `SegmentedControl` draws it before its sliding indicator
 * has measured the labels (the chosen label paints its own background, Mantine's stylesheet without
 * `data-initialized`): a radio group of native inputs, so the arrow keys move the choice. Mantine's
 * indicator measures every label with getBoundingClientRect as the control mounts, a forced layout
 * of the whole page in the middle of a dashboard's first render (5 % of its main-thread time), and
 * its module is 2.5 KB gzipped of the dashboard's first load.
 */
export function PlainSegmented({ 'aria-label': label, value, onChange, data, className }: PlainSegmentedProps) {
  const name = useId()
  return (
    <div role="radiogroup" aria-label={label} className={className ? `${SEGMENTED_CLASSES.root} ${className}` : SEGMENTED_CLASSES.root}>
      {data.map((item) => {
        const active = item.value === value
        const id = `${name}-${item.value}`
        return (
          <div key={item.value} className={SEGMENTED_CLASSES.control} data-active={active || undefined}>
            <input
              className={SEGMENTED_CLASSES.input}
              type="radio"
              name={name}
              value={item.value}
              id={id}
              checked={active}
              onChange={() => onChange(item.value)}
              data-focus-ring="auto"
            />
            <label className={SEGMENTED_CLASSES.label} htmlFor={id} data-active={active || undefined}>
              <span className={SEGMENTED_CLASSES.innerLabel}>{item.label}</span>
            </label>
          </div>
        )
      })}
    </div>
  )
}
