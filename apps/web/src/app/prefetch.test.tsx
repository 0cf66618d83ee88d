import { createMemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { licensePagesQueryOptions, licenseTotalQueryOptions, unfiltered } from '../api/licenses.ts'
import { groupsQueryOptions } from '../api/groups.ts'
import { makeQueryClient } from '../lib/query-client.ts'
import { profileQueryOptions } from '../lib/auth.ts'
import { json, licenseView, mockApi, setLogged, signedInRoutes } from '../test/utils.tsx'
import { appRoutes } from './router.tsx'

const signOut = () => {
  document.cookie = 'user_status=; path=/; max-age=0'
}

/** The router at a path: it runs the matched routes' loaders (and loads their code) as it starts. */
function routerAt(path: string, client = makeQueryClient()) {
  const router = createMemoryRouter(appRoutes(client), { initialEntries: [path] })
  /** Settles once the first page is in and the requests its loaders started have been answered. */
  const ready = async () => {
    await vi.waitFor(() => expect(router.state.initialized).toBe(true))
    await vi.waitFor(() => expect(client.isFetching()).toBe(0))
  }
  return { router, client, ready }
}

describe("the route loaders: a signed-in screen's first data, asked for while its code loads", () => {
  afterEach(signOut)

  it('a dashboard asks for its first page, the groups, the total and the profile, under the keys the screens read', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes({ licenses: [licenseView({ id: 1 }), licenseView({ id: 2 })] }))
    const { client, ready } = routerAt('/app/nuitrack/dashboard/')
    await ready()
    await vi.waitFor(() =>
      expect(calls.map((c) => c.url).sort()).toEqual([
        '/api/client/',
        '/api/group/',
        '/api/license/?limit=1',
        '/api/license/?type=nuitrack&status=all&product=all&offset=0&limit=20',
      ]),
    )
    await vi.waitFor(() => expect(client.isFetching()).toBe(0))
    // the screens find the answers: same keys, data in the cache
    expect(client.getQueryData(licensePagesQueryOptions(unfiltered('nuitrack')).queryKey)?.pages[0]?.total).toBe(2)
    expect(client.getQueryData(groupsQueryOptions().queryKey)).toEqual({ groups: [], unactivated_licenses: 0 })
    expect(client.getQueryData(licenseTotalQueryOptions().queryKey)).toBeDefined()
    expect(client.getQueryData(profileQueryOptions().queryKey)?.client_info.email).toBeTruthy()
  })

  it('a first page whose data fails is drawn all the same: the screen shows the failure', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), 'GET /api/group/': () => json(503, { error_code: 'service_unavailable', error: 'down' }) })
    const { client, ready } = routerAt('/app/nuitrack/dashboard/')
    await ready()
    await vi.waitFor(() => expect(client.getQueryState(groupsQueryOptions().queryKey)?.status).toBe('error'))
  })

  it('a navigation to another dashboard asks for its own first page', async () => {
    setLogged()
    mockApi(signedInRoutes())
    const { router, client, ready } = routerAt('/app/nuitrack/dashboard/')
    await ready()
    const started = vi.spyOn(client, 'prefetchInfiniteQuery')
    await router.navigate('/app/face/dashboard/')
    await vi.waitFor(() => expect(started).toHaveBeenCalledTimes(1))
  })

  it('another signed-in screen asks for the profile only', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes())
    await routerAt('/app/account/').ready()
    expect(calls.map((c) => c.url)).toEqual(['/api/client/'])
  })

  it('signed out nothing is asked', async () => {
    const calls = mockApi(signedInRoutes())
    await routerAt('/app/nuitrack/dashboard/').ready()
    await routerAt('/app/login/').ready()
    expect(calls.map((c) => c.url)).toEqual([])
  })

  it('a path that names no platform asks for no licenses', async () => {
    setLogged()
    const calls = mockApi(signedInRoutes())
    await routerAt('/app/not-a-platform/dashboard/').ready()
    expect(calls.map((c) => c.url)).toEqual(['/api/client/'])
  })
})
