import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls, type ContractResponse, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type ConfirmAnswer = ContractResponse<typeof contracts.confirm>

/** POST /api/client/confirm/: run once per link, so it is cached as a query (no double submit). */
export const confirmRegistration = (clientId: number, token: string) =>
  call(contractCalls.confirm, { body: { client_id: clientId, confirmation_token: token } }, { silent: true })

export const confirmQueryOptions = (clientId: number, token: string) =>
  queryOptions({
    queryKey: ['auth', 'confirm', clientId, token] as const,
    queryFn: () => confirmRegistration(clientId, token),
    staleTime: Infinity,
  })

export const useConfirm = (clientId: number, token: string, enabled: boolean) => useQuery({ ...confirmQueryOptions(clientId, token), enabled })
