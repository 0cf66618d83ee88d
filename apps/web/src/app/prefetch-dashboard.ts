import type { QueryClient } from '@tanstack/react-query'
import type { Platform } from '@portal/domain'
import { licensePagesQueryOptions, licenseTotalQueryOptions, unfiltered } from '../api/licenses.ts'
import { groupsQueryOptions } from '../api/groups.ts'

/**
 * A platform's dashboard: its first page of rows with the tab counts, the groups, and the shell's
 * license total (app/prefetch.ts says why). A chunk of its own: the list's and groups' API modules
 * come with their query hooks, which no sign-in page needs; a dashboard's HTML preloads it.
 */
export function prefetchDashboard(client: QueryClient, platform: Platform): Promise<unknown> {
  return Promise.all([
    client.prefetchInfiniteQuery(licensePagesQueryOptions(unfiltered(platform))),
    client.prefetchQuery(groupsQueryOptions()),
    client.prefetchQuery(licenseTotalQueryOptions()),
  ])
}
