import { useSyncExternalStore } from 'react'

/** What the one global error modal shows. `message` is a translation key (or an error code). */
export interface ErrorModalState {
  /** defaults to the generic 'An error occurred during the operation' */
  title?: string
  message: string
  /** the unauthorized variant offers a way back to the login page */
  kind: 'error' | 'unauthorized'
}

let current: ErrorModalState | null = null
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export const errorStore = {
  show(state: ErrorModalState) {
    current = state
    emit()
  },
  close() {
    current = null
    emit()
  },
  get: () => current,
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  },
}

export const useErrorModalState = () => useSyncExternalStore(errorStore.subscribe, errorStore.get, errorStore.get)

/** alias kept for callers that use the dialog name */
export const useErrorDialog = useErrorModalState
