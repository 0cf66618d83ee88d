import { act, render } from '@testing-library/react'
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction, type RouteObject } from 'react-router'
import { AppProviders } from '../app/providers.tsx'
import { AppRoutes, appRoutes } from '../app/router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'

// a test that renders the app reaches the fetch mock and the fixtures through this one module; a test
// that renders no app imports mock-api.ts or fixtures.ts and never loads the app
export * from './mock-api.ts'
export * from './fixtures.ts'

/**
 * Every lazy screen's code, loaded ahead: a test's screen then draws at once, as on a revisit;
 * app/lazy-routes.test.tsx covers the loading itself, the fallback and a chunk that fails.
 */
const everyRoute = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...everyRoute(r.children ?? [])])
await Promise.all(everyRoute(appRoutes).map((r) => (r.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.()))

/** Renders the whole app at a path, with a memory router the test can inspect and navigate. */
export function renderApp(path: string, state?: unknown) {
  const [pathname, search] = path.split('?')
  let location: Location | undefined
  let navigate: NavigateFunction | undefined
  function RouterProbe() {
    location = useLocation()
    navigate = useNavigate()
    return null
  }
  const queryClient = makeQueryClient()
  const view = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[state ? { pathname: pathname!, search: search ? `?${search}` : '', state } : path]}>
        <AppRoutes />
        <RouterProbe />
      </MemoryRouter>
    </AppProviders>,
  )
  const router = {
    /** Navigates as a link would, and lets the screens it draws settle. */
    navigate: (to: string) => act(async () => void (await navigate!(to))),
  }
  return { ...view, router, queryClient, location: () => location! }
}

export const setLogged = () => {
  document.cookie = 'user_status=logged; path=/'
}
