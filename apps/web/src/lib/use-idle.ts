import { useEffect, useState } from 'react'

/**
 * Whether the browser has had an idle moment since the component mounted (at most `timeout` ms
 * later). Work nobody waits for, such as a background request, waits for it and so stays off the
 * page's first paint. Without `requestIdleCallback` (Safari, jsdom) the next task counts.
 */
export function useIdle(timeout = 2000): boolean {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    const request = globalThis.requestIdleCallback as typeof requestIdleCallback | undefined
    const cancel = globalThis.cancelIdleCallback as typeof cancelIdleCallback | undefined
    if (typeof request === 'function' && typeof cancel === 'function') {
      const id = request(() => setIdle(true), { timeout })
      return () => cancel(id)
    }
    const id = setTimeout(() => setIdle(true), 0)
    return () => clearTimeout(id)
  }, [timeout])
  return idle
}
