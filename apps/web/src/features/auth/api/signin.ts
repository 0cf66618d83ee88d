import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ProfileResponse, SigninBody } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { notifySession } from '../../../lib/session.ts'

/** Codes the sign-in form shows itself (section 8). */
export const SIGNIN_HANDLED = ['3fc79796', 'e1a53088', 'e6f34eac', 'ba8aedaf'] as const

export const signin = (body: SigninBody) =>
  api.post<ProfileResponse>('/api/client/signin/', body, { handle: SIGNIN_HANDLED })

export function useSignin() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: signin,
    onSuccess: (profile) => {
      qc.setQueryData(profileQueryOptions().queryKey, profile)
      notifySession()
    },
  })
}
