import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ErrorName } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { clearSessionMemory, notifySession } from '../../../lib/session.ts'

/** The answers the undo screen shows itself: a dead link, and an address someone else holds now. */
export const EMAIL_REVERT_HANDLED = ['token_invalid', 'client_not_found', 'email_in_use'] as const satisfies readonly ErrorName[]

/** POST /api/client/revert-email/: the account takes the old address back and every session ends. */
export const revertEmail = (clientId: number, token: string) =>
  call(contractCalls.emailRevert, { body: { client_id: clientId, confirmation_token: token } }, { handle: EMAIL_REVERT_HANDLED })

export function useRevertEmail() {
  return useMutation({
    mutationFn: ({ clientId, token }: { clientId: number; token: string }) => revertEmail(clientId, token),
    // every session of the account ended, this browser's too
    onSuccess: () => {
      clearSessionMemory()
      notifySession()
    },
  })
}
