import { act, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useIdle } from './use-idle.ts'

describe('useIdle', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('is false until the browser is first idle, then true; unmounting first cancels the wait', () => {
    let idle: (() => void) | undefined
    const request = vi.fn((cb: () => void) => ((idle = cb), 7))
    const cancel = vi.fn()
    vi.stubGlobal('requestIdleCallback', request)
    vi.stubGlobal('cancelIdleCallback', cancel)
    const { result, unmount } = renderHook(() => useIdle(500))
    expect(result.current).toBe(false)
    expect(request).toHaveBeenCalledWith(expect.any(Function), { timeout: 500 })
    act(() => idle!())
    expect(result.current).toBe(true)
    const other = renderHook(() => useIdle())
    other.unmount()
    expect(cancel).toHaveBeenCalledWith(7)
    unmount()
  })

  it('without requestIdleCallback, the next task counts', async () => {
    vi.stubGlobal('requestIdleCallback', undefined)
    const { result } = renderHook(() => useIdle())
    expect(result.current).toBe(false)
    await waitFor(() => expect(result.current).toBe(true))
  })
})
