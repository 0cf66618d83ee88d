import { useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/invitation/{token}/: what the link offers; an invalid, used or expired one is the page's to show. */
export const getInvitation = (token: string, signal?: AbortSignal) =>
  call(contractCalls.invitationShow, { params: { token } }, { signal, handle: ['invitation_invalid'] })

export const useInvitation = (token: string) =>
  useQuery({ queryKey: ['invitation', token], queryFn: ({ signal }) => getInvitation(token, signal), retry: false })
