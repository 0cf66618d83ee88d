import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { tokensQueryOptions } from './tokens.ts'

/** POST /account/tokens/{id}/revoke/: the token stops working at once. */
export const revokeToken = (id: number) => call(contractCalls.tokenRevoke, { params: { id } })

export function useRevokeToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
  })
}
