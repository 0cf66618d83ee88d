import { useSyncExternalStore } from 'react'

/**
 * A global modal's state, for a modal the shell mounts once and any feature opens (features never
 * import each other, so they share one of these): null while it is closed.
 */
export function createModalStore<S>() {
  let current: S | null = null
  const listeners = new Set<() => void>()
  const emit = () => listeners.forEach((l) => l())
  const store = {
    set(state: S | null) {
      current = state
      emit()
    },
    close: () => store.set(null),
    get: () => current,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
  return store
}

/** The store's state in a component, re-rendered when it changes. */
export const useModalStore = <S>(store: ReturnType<typeof createModalStore<S>>) => useSyncExternalStore(store.subscribe, store.get, store.get)
