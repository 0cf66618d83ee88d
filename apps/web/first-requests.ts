import type { Platform } from '@portal/domain'

/**
 * The API calls a signed-in dashboard makes as it opens: its first page of rows with the tab counts,
 * the license total, the groups and the profile (the route table's prefetch, app/prefetch.ts). The server
 * lists them as `preload` links in the dashboard's HTML (build-route-preloads.ts, platform/web-app.ts),
 * so they go out beside the scripts instead of after the scripts have run; the app's own requests
 * then take the preloaded answers. app/prefetch.test.tsx checks that the app asks for exactly these
 * addresses: a preload the app does not ask for is a request wasted.
 */
export const dashboardFirstRequests = (platform: Platform): string[] => [
  `/api/license/?${new URLSearchParams({ type: platform, status: 'all', product: 'all', offset: '0', limit: '20' })}`,
  '/api/license/?limit=1',
  '/api/group/',
  '/api/client/',
]
