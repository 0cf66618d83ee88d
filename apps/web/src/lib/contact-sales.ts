import { useSyncExternalStore } from 'react'
import { DEFAULT_SALES_RECIPIENT } from '@portal/domain'

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

let current: ContactSalesState | null = null
let openings = 0
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export const contactSales = {
  open(state: { recipient?: string; details?: string } = {}) {
    current = { recipient: DEFAULT_SALES_RECIPIENT, ...state, id: ++openings }
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

/** The open modal's state, or null while it is closed. */
export const useContactSales = () => useSyncExternalStore(contactSales.subscribe, contactSales.get, contactSales.get)
