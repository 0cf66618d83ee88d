import { useEffect } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { isPlatform } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { openFillBalance } from '../../../lib/fill-balance.ts'

/** The amount of ?amount= when it is a whole number of dollars; the modal checks it against the rules. */
export function amountParam(value: string | null): number | undefined {
  return value !== null && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : undefined
}

/** /app/{platform}/add-funds/?amount=: opens the fill-balance modal with the amount, then shows the dashboard (spec section 2). */
export function AddFundsRoute() {
  const { platform } = useParams()
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const amount = amountParam(search.get('amount'))

  useEffect(() => {
    openFillBalance(amount !== undefined ? { amount } : {})
    navigate(paths.dashboard(isPlatform(platform) ? platform : 'nuitrack'), { replace: true })
  }, [amount, platform, navigate])

  return null
}
