import { createRef } from 'react'
import { render } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useMergeRefs } from './merge-refs.ts'

function Box({ refs }: { refs: Parameters<typeof useMergeRefs<HTMLDivElement>>[0] }) {
  const ref = useMergeRefs(refs)
  return <div data-testid="box" ref={ref} />
}

describe('useMergeRefs (the copy Mantine ScrollArea gets in the build)', () => {
  it('sets an object ref and calls a callback ref with the element, and clears both on unmount', () => {
    const object = createRef<HTMLDivElement>()
    const callback = vi.fn()
    const view = render(<Box refs={[object, callback, undefined]} />)
    const box = view.getByTestId('box')
    expect(object.current).toBe(box)
    expect(callback).toHaveBeenCalledWith(box)
    view.unmount()
    expect(object.current).toBeNull()
    expect(callback).toHaveBeenLastCalledWith(null)
  })

  it("runs a callback ref's own cleanup instead of calling it with null", () => {
    const cleanup = vi.fn()
    const callback = vi.fn(() => cleanup)
    const view = render(<Box refs={[callback]} />)
    view.unmount()
    expect(cleanup).toHaveBeenCalledOnce()
    expect(callback).toHaveBeenCalledOnce()
  })

  it('gives no ref at all when every ref is empty', () => {
    let merged: unknown = 'unset'
    function Probe() {
      merged = useMergeRefs<HTMLDivElement>([undefined, null])
      return null
    }
    render(<Probe />)
    expect(merged).toBeNull()
  })
})
