import { createModalStore, useModalStore } from './modal-store.ts'

/** What the one global error modal shows. `message` is a translation key (or an error code). */
export interface ErrorModalState {
  /** defaults to the generic 'An error occurred during the operation' */
  title?: string
  message: string
  /** the unauthorized variant offers a way back to the login page */
  kind: 'error' | 'unauthorized'
}

const store = createModalStore<ErrorModalState>()

export const errorStore = {
  show: (state: ErrorModalState) => store.set(state),
  close: store.close,
  get: store.get,
  subscribe: store.subscribe,
}

export const useErrorModalState = () => useModalStore(store)
