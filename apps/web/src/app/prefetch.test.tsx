import { act, render } from '@testing-library/react'
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppProviders } from './providers.tsx'
import { licensePagesQueryOptions, licenseTotalQueryOptions, unfiltered } from '../api/licenses.ts'
import { groupsQueryOptions } from '../api/groups.ts'
import { makeQueryClient } from '../lib/query-client.ts'
import { profileQueryOptions } from '../lib/auth.ts'
import { json, licenseView, mockApi, setLogged, signedInRoutes } from '../test/utils.tsx'
import { AppRoutes, startRoute } from './router.tsx'
// loaded ahead, as a dashboard's HTML preloads it: the router imports it when a dashboard matches
import './prefetch-dashboard.ts'
import { PLATFORMS } from '@portal/domain'
import { dashboardFirstRequests } from '../../first-requests.ts'

const signOut = () => {
  document.cookie = 'user_status=; path=/; max-age=0'
}

/** Starts what every route a path matches asks for, as a navigation there does. */
function navigateTo(path: string, client = makeQueryClient()) {
  startRoute(client, path)
  return client
}

const settle = () => new Promise((r) => setTimeout(r, 50))

describe('prefetching a signed-in screen while its code loads', () => {
  afterEach(signOut)

  it('a dashboard asks for its first page, the groups, the total and the profile, under the keys the screens read', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes({ licenses: [licenseView({ id: 1 }), licenseView({ id: 2 })] }))
    const client = navigateTo('/app/nuitrack/dashboard/')
    await settle()
    expect(calls.map((c) => c.url).sort()).toEqual([
      '/api/client/',
      '/api/group/',
      '/api/license/?limit=1',
      '/api/license/?type=nuitrack&status=all&product=all&offset=0&limit=20',
    ])
    // the screens find the answers: same keys, data in the cache
    expect(client.getQueryData(licensePagesQueryOptions(unfiltered('nuitrack')).queryKey)?.pages[0]?.total).toBe(2)
    expect(client.getQueryData(groupsQueryOptions().queryKey)).toEqual({ groups: [] })
    expect(client.getQueryData(licenseTotalQueryOptions().queryKey)).toBeDefined()
    expect(client.getQueryData(profileQueryOptions().queryKey)?.client_info.email).toBeTruthy()
  })

  it.each(PLATFORMS)('the %s dashboard asks for exactly the addresses its HTML preloads (first-requests.ts)', async (platform) => {
    setLogged()
    const calls = mockApi(signedInRoutes())
    navigateTo(`/app/${platform}/dashboard/`)
    await settle()
    expect(calls.map((c) => c.url).sort()).toEqual([...dashboardFirstRequests(platform)].sort())
  })

  it("the first page's start settles once its data is in the cache (main.tsx draws the page whole)", async () => {
    setLogged()
    mockApi(signedInRoutes({ licenses: [licenseView({ id: 1 })] }))
    const client = makeQueryClient()
    await startRoute(client, '/app/nuitrack/dashboard/')
    expect(client.getQueryData(licensePagesQueryOptions(unfiltered('nuitrack')).queryKey)?.pages[0]?.total).toBe(1)
    expect(client.getQueryData(groupsQueryOptions().queryKey)).toEqual({ groups: [] })
    expect(client.getQueryData(licenseTotalQueryOptions().queryKey)).toBeDefined()
    expect(client.getQueryData(profileQueryOptions().queryKey)?.client_info.email).toBeTruthy()
  })

  it('a first page whose data fails still settles: the screen shows the failure as it draws', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), 'GET /api/group/': () => json(503, { error_code: 'service_unavailable', error: 'down' }) })
    const client = makeQueryClient()
    await expect(startRoute(client, '/app/nuitrack/dashboard/')).resolves.toBeUndefined()
    expect(client.getQueryState(groupsQueryOptions().queryKey)?.status).toBe('error')
  })

  it("the table's first render does not start again what main.tsx started for that page; a later navigation starts its own", async () => {
    setLogged()
    mockApi(signedInRoutes())
    const client = makeQueryClient()
    await startRoute(client, '/app/nuitrack/dashboard/')
    const prefetches = vi.spyOn(client, 'prefetchQuery')
    const started = vi.spyOn(client, 'prefetchInfiniteQuery')
    let navigate: NavigateFunction | undefined
    const Probe = () => ((navigate = useNavigate()), null)
    render(
      <AppProviders queryClient={client}>
        <MemoryRouter initialEntries={['/app/nuitrack/dashboard/']}>
          <AppRoutes />
          <Probe />
        </MemoryRouter>
      </AppProviders>,
    )
    await settle()
    expect(prefetches).not.toHaveBeenCalled()
    expect(started).not.toHaveBeenCalled()
    await act(async () => void (await navigate!('/app/face/dashboard/')))
    expect(started).toHaveBeenCalledTimes(1)
  })

  it('another signed-in screen asks for the profile only', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes())
    navigateTo('/app/account/')
    await settle()
    expect(calls.map((c) => c.url)).toEqual(['/api/client/'])
  })

  it('signed out nothing is asked, even when the session starts before the prefetching code has loaded', async () => {
    const calls = mockApi(signedInRoutes())
    navigateTo('/app/nuitrack/dashboard/')
    navigateTo('/app/login/')
    setLogged()
    await settle()
    expect(calls.map((c) => c.url)).toEqual([])
  })

  it('a path that names no platform asks for no licenses', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes())
    navigateTo('/app/not-a-platform/dashboard/')
    await settle()
    expect(calls.map((c) => c.url)).toEqual(['/api/client/'])
  })
})
