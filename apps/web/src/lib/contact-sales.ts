import { DEFAULT_SALES_RECIPIENT } from '@portal/domain'
import { createModalStore, useModalStore } from './modal-store.ts'

/**
 * The contact-sales modal, openable from anywhere (the basket's on-premise card, a help tile):
 * `contactSales.open()` shows it; the shell mounts the one modal (features/support), which reads
 * this store. Features never import each other, so they share this instead.
 */
export interface ContactSalesState {
  /** who the message is for (a SALES_RECIPIENTS name of the server) */
  recipient: string
  /** what the details start with, e.g. the product the customer asks about (already translated) */
  details?: string
  /** a new number per opening: the form starts afresh each time */
  id: number
}

const store = createModalStore<ContactSalesState>()
let openings = 0

export const contactSales = {
  open(state: { recipient?: string; details?: string } = {}) {
    store.set({ recipient: DEFAULT_SALES_RECIPIENT, ...state, id: ++openings })
  },
  close: store.close,
  get: store.get,
  subscribe: store.subscribe,
}

/** The open modal's state, or null while it is closed. */
export const useContactSales = () => useModalStore(store)
