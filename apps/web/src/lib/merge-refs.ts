import { useCallback, useMemo, useRef, type Ref, type RefCallback } from 'react'

/**
 * One ref callback that sets every ref given (object refs and callback refs, with React 19's cleanup
 * functions), as `useMergeRefs` of @floating-ui/react does. Mantine's ScrollArea imports only this
 * from that library; the build hands ScrollArea this copy (apps/web/build-merge-refs.ts), so every
 * table and scrolling box no longer brings the whole floating-ui library (about 10 KB gzipped) into
 * the first load of the screens that have no popover.
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<(() => void) | undefined>(undefined)
  const refEffect = useCallback(
    (instance: T) => {
      const cleanups = refs.map((ref) => {
        if (ref == null) return undefined
        if (typeof ref === 'function') {
          const cleanup = ref(instance)
          return typeof cleanup === 'function' ? cleanup : () => void ref(null)
        }
        ref.current = instance
        return () => {
          ref.current = null
        }
      })
      return () => cleanups.forEach((cleanup) => cleanup?.())
    },
    // the refs themselves are the dependencies, as in the original
    // eslint-disable-next-line react-hooks/exhaustive-deps
    refs,
  )
  return useMemo(
    () => {
      if (refs.every((ref) => ref == null)) return null
      return (value: T | null) => {
        cleanupRef.current?.()
        cleanupRef.current = undefined
        if (value != null) cleanupRef.current = refEffect(value)
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    refs,
  )
}
