import type { Cents } from '@portal/domain'
import { createModalStore, useModalStore } from './modal-store.ts'

/**
 * The fill-balance modal is one for the whole app (the shell renders it): any feature opens it
 * here, the side menu's balance card, /add-funds/ with an amount, or a purchase that needs a top-up
 * with its shortfall (the minimum and the starting amount then cover it).
 */
export interface FillBalanceRequest {
  /** what a purchase lacks, in cents: the top-up must cover it */
  shortfallCents?: Cents
  /** a whole-dollar amount to start with (add-funds); an amount the rules refuse falls back to the default */
  amount?: number
}

const store = createModalStore<FillBalanceRequest>()

export const fillBalanceStore = {
  open: (request: FillBalanceRequest = {}) => store.set({ ...request }),
  close: store.close,
  get: store.get,
  subscribe: store.subscribe,
}

/** Opens the fill-balance modal (from any feature). */
export const openFillBalance = (request: FillBalanceRequest = {}) => fillBalanceStore.open(request)

/** What the modal is open for, or null when it is closed. */
export const useFillBalance = () => useModalStore(store)
