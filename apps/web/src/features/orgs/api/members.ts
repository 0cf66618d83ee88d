import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/org/members/: the current organisation's members and open invitations. */
export const getMembers = (signal?: AbortSignal) => call(contractCalls.memberList, {}, { signal })

export const membersQueryOptions = () => queryOptions({ queryKey: ['orgs', 'members'] as const, queryFn: ({ signal }) => getMembers(signal) })

/** Asked for only where there are members (a corporate account). */
export const useMembers = (enabled = true) => useQuery({ ...membersQueryOptions(), enabled })
