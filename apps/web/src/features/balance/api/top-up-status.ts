import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { TransactionStatus } from '@portal/domain'
import { newestTransactionQueryOptions } from '../../../api/transactions.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'

/** How often, and how long, the success modal asks whether the provider has confirmed the top-up. */
export const CONFIRM_POLL_MS = 2000
export const CONFIRM_POLL_FOR_MS = 60_000

/**
 * The state of the newest transaction (the top-up the checkout just returned from), read again
 * every 2 s for up to a minute while it is pending: the provider's webhook may land after the
 * browser is back. When it is no longer pending the balance is read again (`balanceRead` then).
 */
export function useTopUpStatus(): { status: TransactionStatus | null; balanceRead: boolean } {
  const qc = useQueryClient()
  const [since] = useState(() => Date.now())
  const query = useQuery({
    ...newestTransactionQueryOptions(),
    refetchInterval: (q) => (q.state.data?.transactions[0]?.status === 'pending' && Date.now() - since < CONFIRM_POLL_FOR_MS ? CONFIRM_POLL_MS : false),
  })
  const status = query.data?.transactions[0]?.status ?? null
  const settled = status !== null && status !== 'pending'
  // the balance after the payment: read once the transaction is settled
  const [balanceRead, setBalanceRead] = useState(false)
  useEffect(() => {
    if (!settled) return
    let live = true
    void qc.invalidateQueries({ queryKey: profileQueryOptions().queryKey }).then(() => live && setBalanceRead(true))
    return () => {
      live = false
    }
  }, [settled, qc])
  return { status, balanceRead }
}
