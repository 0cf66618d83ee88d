import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** POST /api/license/{id}/cancel-subscription/: stays active to the end of the paid period, then ends. */
export const cancelSubscription = (id: number) => call(contractCalls.licenseCancelSubscription, { params: { id } })
