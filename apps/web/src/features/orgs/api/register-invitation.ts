import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { notifySession } from '../../../lib/session.ts'
import { orgsQueryOptions } from './orgs.ts'

export const registerThroughInvitation = ({ token, password }: { token: string; password: string }) =>
  call(
    contractCalls.invitationRegister,
    { params: { token }, body: { password } },
    { handle: ['invitation_invalid', 'email_in_use', 'password_invalid', 'password_contains_email', 'not_corporate', 'validation_failed', 'rate_limited'] },
  )

/** Makes the account and signs in, acting in the organisation. */
export function useRegisterThroughInvitation() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: registerThroughInvitation,
    onSuccess: (orgs) => {
      qc.removeQueries()
      qc.setQueryData(orgsQueryOptions().queryKey, orgs)
      notifySession()
    },
  })
}
