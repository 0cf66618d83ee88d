import { useSyncExternalStore } from 'react'
import { basketKey, stepperValue, type Platform, type PurchaseItem } from '@portal/domain'

/**
 * The basket (spec section 3): productsMap keyed by basketKey (product_expiredelta, lowercase),
 * each line a config and a count. Kept in session storage per platform, so a reload keeps it and
 * a new tab starts empty.
 */
export interface BasketLine {
  key: string
  config: PurchaseItem['config']
  count: number
}
export type ProductsMap = Record<string, BasketLine>

const storageKey = (platform: Platform) => `portal.basket.${platform}`
const listeners = new Set<() => void>()
const snapshots = new Map<Platform, { raw: string | null; map: ProductsMap }>()

function read(platform: Platform): ProductsMap {
  const raw = sessionStorage.getItem(storageKey(platform))
  const cached = snapshots.get(platform)
  if (cached && cached.raw === raw) return cached.map
  let map: ProductsMap = {}
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {}
    if (parsed && typeof parsed === 'object') map = parsed as ProductsMap
  } catch {
    map = {}
  }
  snapshots.set(platform, { raw, map })
  return map
}

function write(platform: Platform, map: ProductsMap) {
  if (Object.keys(map).length === 0) sessionStorage.removeItem(storageKey(platform))
  else sessionStorage.setItem(storageKey(platform), JSON.stringify(map))
  for (const l of listeners) l()
}

export const lineKey = (config: PurchaseItem['config']) => basketKey(config.product, config.license_expire_delta)

export const basketStore = {
  read,
  /** Section 4: a count of 0 removes the line, an existing line is updated, a new one takes the count (1 by default). */
  set(platform: Platform, config: PurchaseItem['config'], count = 1) {
    const key = lineKey(config)
    const map = { ...read(platform) }
    const value = stepperValue(count)
    if (value === 0) delete map[key]
    else map[key] = { key, config, count: value }
    write(platform, map)
  },
  /** Adds a line with 1 unless it is there already. */
  add(platform: Platform, config: PurchaseItem['config']) {
    const key = lineKey(config)
    const existing = read(platform)[key]
    // the builder's line is replaced by the newest configuration, with the count it had
    basketStore.set(platform, config, existing?.count ?? 1)
  },
  clear(platform: Platform) {
    write(platform, {})
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useBasket(platform: Platform): ProductsMap {
  return useSyncExternalStore(basketStore.subscribe, () => read(platform))
}
