import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { MemoryRouter, useNavigate, type RouteObject } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { AppProviders } from './providers.tsx'
import { TableRoutes, appRoutes, routeMatches } from './router.tsx'
import { lazyScreen } from './lazy-screen.tsx'
import { mockApi } from '../test/utils.tsx'

/** Every route of the table, depth first. */
const allRoutes = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...allRoutes(r.children ?? [])])

/** A lazy screen whose code arrives (or fails) when the test says. */
function heldScreen(text: string) {
  let settle!: { resolve: () => void; reject: (e: Error) => void }
  const held = () =>
    new Promise<void>((resolve, reject) => {
      settle = { resolve, reject }
    })
  const lazy = lazyScreen(held, () => <p>{text}</p>)
  return { lazy, settle: () => settle }
}

let go: ReturnType<typeof useNavigate> | undefined
function Navigator() {
  go = useNavigate()
  return null
}

const CHUNK_ERROR = 'Failed to fetch dynamically imported module'

/** React reports the error a boundary caught on the console: a failed chunk's is expected, any other still fails the test. */
function allowChunkErrorsOnConsole() {
  const failing = console.error
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!args.map(String).join(' ').includes(CHUNK_ERROR)) failing(...args)
  })
}

/** The table's root (the frame with its loading and error screens) around the given screens. */
async function renderRoutes(children: RouteObject[], path: string) {
  const [root] = appRoutes
  // in act, as a screen that suspends wants: React retries it when its code arrives
  await act(
    async () =>
      void render(
        <AppProviders>
          <MemoryRouter initialEntries={[path]}>
            <TableRoutes routes={[{ element: root!.element, children }]} />
            <Navigator />
          </MemoryRouter>
        </AppProviders>,
      ),
  )
}

describe('lazy routes (the real table, loaded on demand)', () => {
  it('every screen of the table is a lazy screen: none is drawn by an element the entry holds', () => {
    const screens = allRoutes(appRoutes).filter((r) => r.path && !r.children && r.handle)
    const eager = screens.filter(
      (r) => !['Screen', 'Navigate', 'RedirectKeep', 'AppCatchAll', 'NotFoundRoute'].includes((r.element as { type?: { name?: string } }).type?.name ?? ''),
    )
    expect(eager.map((r) => r.path)).toEqual([])
    const lazy = screens.filter((r) => typeof (r.handle as { preload?: unknown }).preload === 'function')
    expect(lazy.length).toBeGreaterThan(20)
    expect(lazy.every((r) => (r.element as { type?: { name?: string } }).type?.name === 'Screen')).toBe(true)
  })

  it('the first page shows a loading status while its code loads, then the screen', async () => {
    mockApi({})
    const { lazy, settle } = heldScreen('The screen')
    await renderRoutes([{ path: '/app/login/', element: lazy.element }], '/app/login/')
    const status = await screen.findByRole('status')
    expect(status).toHaveAttribute('aria-busy', 'true')
    expect(status).toHaveTextContent('Loading…')
    await act(async () => settle().resolve())
    expect(await screen.findByText('The screen')).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('a navigation keeps the page it leaves on view until the next screen has loaded', async () => {
    mockApi({})
    const next = heldScreen('The next screen')
    await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/', element: next.lazy.element },
      ],
      '/app/a/',
    )
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    await act(async () => void (await go!('/app/b/')))
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
    await act(async () => next.settle().resolve())
    expect(await screen.findByText('The next screen')).toBeInTheDocument()
    expect(screen.queryByText('The first screen')).not.toBeInTheDocument()
  })

  it('a screen whose chunk fails to load shows the error screen with a reload, and a later visit loads it afresh', async () => {
    mockApi({})
    allowChunkErrorsOnConsole()
    let attempts = 0
    const flaky = lazyScreen(
      () => (++attempts === 1 ? Promise.reject(new TypeError(CHUNK_ERROR)) : Promise.resolve()),
      () => <p>Loaded at last</p>,
    )
    await renderRoutes(
      [
        { path: '/app/login/', element: flaky.element, handle: { preload: flaky.preload } },
        { path: '/app/other/', element: <p>Elsewhere</p> },
      ],
      '/app/login/',
    )
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/app/nuitrack/dashboard/')
    expect(attempts).toBe(1)

    // leaving clears the error; coming back (the router preloads what a path matches) fetches the code again
    await act(async () => void (await go!('/app/other/')))
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument()
    await act(async () => void (await go!('/app/login/')))
    expect(await screen.findByText('Loaded at last')).toBeInTheDocument()
    expect(attempts).toBe(2)
  })

  it('a screen whose chunk fails during a navigation shows the error screen after one attempt, not a retry at every render', async () => {
    mockApi({})
    allowChunkErrorsOnConsole()
    let attempts = 0
    const broken = lazyScreen(
      () => {
        attempts += 1
        return new Promise<never>((_, reject) => setTimeout(() => reject(new TypeError(CHUNK_ERROR)), 5))
      },
      () => <p>Never drawn</p>,
    )
    await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/', element: broken.element, handle: { preload: broken.preload } },
      ],
      '/app/a/',
    )
    await act(async () => void (await go!('/app/b/')))
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument()
    await act(() => new Promise((r) => setTimeout(r, 100)))
    expect(attempts).toBe(1)
  })

  it('a navigation asks for the data of the screen it opens while that screen’s code is still loading', async () => {
    mockApi({})
    const next = heldScreen('The next screen')
    const prefetch = vi.fn()
    await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/:id/', element: next.lazy.element, handle: { preload: next.lazy.preload, prefetch } },
      ],
      '/app/a/',
    )
    expect(prefetch).not.toHaveBeenCalled()
    await act(async () => void (await go!('/app/b/7/')))
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    expect(prefetch).toHaveBeenCalledTimes(1)
    expect(prefetch.mock.calls[0]![1]).toEqual({ id: '7' })
    await act(async () => next.settle().resolve())
    expect(await screen.findByText('The next screen')).toBeInTheDocument()
    expect(prefetch).toHaveBeenCalledTimes(1)
  })

  it('two routes that draw the same screen keep it mounted between them, with its state', async () => {
    mockApi({})
    function Counter({ kind }: { kind: string }) {
      const [count, setCount] = useState(0)
      return (
        <button type="button" onClick={() => setCount(count + 1)}>
          {kind} {count}
        </button>
      )
    }
    const module = () => Promise.resolve({ Counter })
    const one = lazyScreen(module, (m) => <m.Counter kind="one" />)
    const two = lazyScreen(module, (m) => <m.Counter kind="two" />)
    await renderRoutes(
      [
        { path: '/app/one/', element: one.element },
        { path: '/app/two/', element: two.element },
      ],
      '/app/one/',
    )
    await act(async () => (await screen.findByRole('button', { name: 'one 0' })).click())
    await act(async () => void (await go!('/app/two/')))
    expect(await screen.findByRole('button', { name: 'two 1' })).toBeInTheDocument()
  })
})

describe('matching a path', () => {
  it('ranks a table once per path: the first page’s start and the table’s render share the matches', () => {
    const dashboard = routeMatches(appRoutes, '/app/nuitrack/dashboard/')
    expect(dashboard.at(-1)?.params.platform).toBe('nuitrack')
    expect(routeMatches(appRoutes, '/app/nuitrack/dashboard/')).toBe(dashboard)
    expect(routeMatches(appRoutes, '/app/face/dashboard/').at(-1)?.params.platform).toBe('face')
    // another table answers for itself
    const table: RouteObject[] = [{ path: '/app/nuitrack/dashboard/', element: null }]
    expect(routeMatches(table, '/app/nuitrack/dashboard/')).toHaveLength(1)
    expect(routeMatches(table, '/app/elsewhere/')).toEqual([])
  })

  it('keeps the matches of the last 20 paths of a table, not of every path ever visited', () => {
    const table: RouteObject[] = [{ path: '/p/:n/', element: null }]
    const first = routeMatches(table, '/p/0/')
    for (let n = 1; n <= 20; n++) routeMatches(table, `/p/${n}/`)
    const again = routeMatches(table, '/p/0/')
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
