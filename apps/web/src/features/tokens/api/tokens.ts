import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /account/tokens/: the account's API tokens (never their secrets). */
export const getTokens = () => call(contractCalls.tokenList, {})
export const tokensQueryOptions = () => queryOptions({ queryKey: ['tokens'], queryFn: getTokens })
export const useTokens = () => useQuery(tokensQueryOptions())
