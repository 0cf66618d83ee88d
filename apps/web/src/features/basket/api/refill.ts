import { contracts, type ContractBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** POST /api/balance/refill/: top the balance up by card; answers the provider checkout to go to. */
export const refillBalance = (body: ContractBody<typeof contracts.balanceRefill>) => call(contracts.balanceRefill, { body })
