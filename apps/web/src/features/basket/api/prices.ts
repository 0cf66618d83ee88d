import { useMemo } from 'react'
import { usdToCents, type Cents } from '@portal/domain'
import { useProfile } from '../../../lib/use-profile.ts'
import { priceRowsOf, type ShownPriceRow } from '../../../lib/prices.ts'

export type { ShownPriceRow }

/** The price rows and the balance (cents); null while the profile loads. */
export function useBasketData(): { rows: ShownPriceRow[]; balanceCents: Cents } | null {
  const profile = useProfile()
  const data = profile.data
  return useMemo(() => (data ? { rows: priceRowsOf(data.prices), balanceCents: usdToCents(data.client_info.balance) } : null), [data])
}
