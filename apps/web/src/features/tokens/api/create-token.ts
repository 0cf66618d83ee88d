import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type TokenCreateBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { tokensQueryOptions } from './tokens.ts'

/** POST /account/tokens/: the answer holds the token itself, the only time it is shown. */
export const createToken = (body: TokenCreateBody) => call(contractCalls.tokenCreate, { body }, { handle: ['validation_failed'] })

export function useCreateToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
  })
}
