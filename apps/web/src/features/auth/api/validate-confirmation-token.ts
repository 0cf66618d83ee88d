import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** 200 {status, email}; 400, 403 and 404 mean the link is unusable: the page shows the expired-link screen. */
export const validateConfirmationToken = (id: string, token: string, signal?: AbortSignal) =>
  call(contractCalls.validateConfirmationToken, { params: { id, token } }, { silent: true, signal })

export const validateConfirmationTokenQueryOptions = (id: string, token: string) =>
  queryOptions({
    queryKey: ['auth', 'validate-confirmation-token', id, token] as const,
    queryFn: ({ signal }) => validateConfirmationToken(id, token, signal),
    staleTime: Infinity,
    gcTime: 0,
  })

export const useValidateConfirmationToken = (id: string, token: string) => useQuery(validateConfirmationTokenQueryOptions(id, token))
