import type { QueryClient } from '@tanstack/react-query'
import { profileQueryOptions } from '../lib/auth.ts'

/**
 * The data a signed-in screen draws first, asked for as soon as its path matches: the requests go
 * out while the screen's code loads instead of after it has rendered (the screens then find the
 * answers, or the requests in flight, in the query cache). Only the first page's render waits for
 * them, and not long (main.tsx); a failure is the screen's to show, as it would be without
 * prefetching. The route table's handles call these for a signed-in visitor only (app/router.tsx).
 */
export function prefetchSignedIn(client: QueryClient): Promise<void> {
  return client.prefetchQuery(profileQueryOptions())
}
