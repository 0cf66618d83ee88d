import { act, render } from '@testing-library/react'
import { createMemoryRouter, type Location, type RouteObject } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import type { QueryClient } from '@tanstack/react-query'
import { AppProviders } from '../app/providers.tsx'
import { appRoutes } from '../app/router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'

// a test that renders the app reaches the fetch mock and the fixtures through this one module; a test
// that renders no app imports mock-api.ts or fixtures.ts and never loads the app
export * from './mock-api.ts'
export * from './fixtures.ts'

/** Every route of a table, depth first. */
const everyRoute = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...everyRoute(r.children ?? [])])

/**
 * Every lazy route's code, loaded ahead: a test's screen then draws at the router's first render, as
 * on a revisit; app/lazy-routes.test.tsx covers the loading itself, the fallback and a chunk that fails.
 */
const loaded = await Promise.all(everyRoute(appRoutes(makeQueryClient())).map((r) => (typeof r.lazy === 'function' ? r.lazy() : undefined)))

/** The app's route table with each lazy route's parts already in place. */
function loadedRoutes(client: QueryClient): RouteObject[] {
  const table = appRoutes(client)
  everyRoute(table).forEach((route, i) => {
    if (!loaded[i]) return
    Object.assign(route, loaded[i])
    delete route.lazy
  })
  return table
}

/** Renders the whole app at a path, with a memory router the test can inspect and navigate. */
export function renderApp(path: string, state?: unknown) {
  const [pathname, search] = path.split('?')
  const queryClient = makeQueryClient()
  const memory = createMemoryRouter(loadedRoutes(queryClient), {
    initialEntries: [state ? { pathname: pathname!, search: search ? `?${search}` : '', state } : path],
  })
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={memory} />
    </AppProviders>,
  )
  const router = {
    /** Navigates as a link would, and lets the screens it draws settle. */
    navigate: (to: string) => act(async () => void (await memory.navigate(to))),
  }
  return { ...view, router, queryClient, location: (): Location => memory.state.location }
}

export const setLogged = () => {
  document.cookie = 'user_status=logged; path=/'
}
