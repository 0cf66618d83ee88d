import { useProfile } from '../../lib/use-profile.ts'
import { AccountRoute } from '../../features/account/routes/account.tsx'
import { AccountHistory } from '../../features/activity/components/AccountHistory.tsx'

/** /app/account/: the account's cards (features/account) and the activity history (features/activity). */
export function AccountScreen() {
  const corporate = useProfile().data?.client_info.options.corporate_member ?? false
  return (
    <AccountRoute>
      <AccountHistory corporate={corporate} />
    </AccountRoute>
  )
}
