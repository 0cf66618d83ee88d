import { Stack } from '@mantine/core'
import { useCan } from '../../lib/use-can.ts'
import { useProfile } from '../../lib/use-profile.ts'
import { AccountRoute } from '../../features/account/routes/account.tsx'
import { AccountHistory } from '../../features/activity/components/AccountHistory.tsx'
import { ApiTokens } from '../../features/tokens/components/ApiTokens.tsx'
import { Webhooks } from '../../features/webhooks/components/Webhooks.tsx'

/**
 * /app/account/: the account's cards (features/account), its API tokens and webhooks (for the roles
 * that manage licenses: owners and developers), and the activity history (features/activity).
 */
export function AccountScreen() {
  const corporate = useProfile().data?.client_info.options.corporate_member ?? false
  const automation = useCan('licenses')
  return (
    <AccountRoute>
      <Stack gap="lg">
        {automation && <ApiTokens />}
        {automation && <Webhooks />}
        <AccountHistory corporate={corporate} />
      </Stack>
    </AccountRoute>
  )
}
