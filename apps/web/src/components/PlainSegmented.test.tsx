import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider, SegmentedControl } from '@mantine/core'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { PlainSegmented, SEGMENTED_CLASSES } from './PlainSegmented.tsx'

const DATA = [
  { value: 'all', label: 'All' },
  { value: 'trial', label: 'Trial' },
  { value: 'perpetual', label: 'Perpetual' },
]

function Controlled() {
  const [value, setValue] = useState('all')
  return <PlainSegmented aria-label="Product" value={value} onChange={setValue} data={DATA} />
}

describe('PlainSegmented: Mantine’s SegmentedControl without its measuring indicator', () => {
  it('uses the class names of the installed Mantine', () => {
    for (const [part, names] of Object.entries(SEGMENTED_CLASSES)) {
      expect(names.split(' '), part).toEqual([SegmentedControl.classes[part as keyof typeof SegmentedControl.classes], `mantine-SegmentedControl-${part}`])
    }
  })

  it('is a named radio group of native radios, each labelled, and the same elements as Mantine’s control', async () => {
    const mantine = render(
      <MantineProvider>
        <SegmentedControl aria-label="Product" value="trial" onChange={() => undefined} data={DATA} />
      </MantineProvider>,
    )
    const shape = (root: HTMLElement) =>
      [...root.querySelectorAll('input, label, span[class*="innerLabel"]')].map(
        (e) => `${e.tagName}.${[...e.classList].sort().join('.')}${e.hasAttribute('data-active') ? '[active]' : ''}`,
      )
    const expected = shape(screen.getByRole('radiogroup', { name: 'Product' }))
    mantine.unmount()

    render(<PlainSegmented aria-label="Product" value="trial" onChange={() => undefined} data={DATA} />)
    expect(shape(screen.getByRole('radiogroup', { name: 'Product' }))).toEqual(expected)
    expect(screen.getByRole('radio', { name: 'Trial' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'All' })).not.toBeChecked()
  })

  it('a click chooses, and the chosen label carries data-active (its background, from Mantine’s stylesheet)', async () => {
    const user = userEvent.setup()
    render(<Controlled />)
    await user.click(screen.getByRole('radio', { name: 'Perpetual' }))
    expect(screen.getByRole('radio', { name: 'Perpetual' })).toBeChecked()
    expect(screen.getByText('Perpetual').closest('label')).toHaveAttribute('data-active')
    expect(screen.getByText('All').closest('label')).not.toHaveAttribute('data-active')
    // one group: the radios share a name, so the arrow keys move between them in a browser
    const names = new Set(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).name))
    expect(names.size).toBe(1)
  })
})
