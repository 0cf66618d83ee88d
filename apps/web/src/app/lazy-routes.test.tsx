import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { createMemoryRouter, type RouteObject } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { describe, expect, it, vi } from 'vitest'
import { AppProviders } from './providers.tsx'
import { appRoutes } from './router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'
import { mockApi } from '../test/utils.tsx'

/** Every route of the table, depth first. */
const allRoutes = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...allRoutes(r.children ?? [])])

/** A lazy route whose code arrives (or fails) when the test says. */
function heldScreen(text: string) {
  let settle!: { resolve: () => void; reject: (e: Error) => void }
  const lazy = () =>
    new Promise<Pick<RouteObject, 'element'>>((resolve, reject) => {
      settle = { resolve: () => resolve({ element: <p>{text}</p> }), reject }
    })
  return { lazy, settle: () => settle }
}

const CHUNK_ERROR = 'Failed to fetch dynamically imported module'

/** React Router reports the error its boundary caught on the console: a failed chunk's is expected, any other still fails the test. */
function allowChunkErrorsOnConsole() {
  const failing = console.error
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!args.map(String).join(' ').includes(CHUNK_ERROR)) failing(...args)
  })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
}

/** The table's root (the frame with its loading and error screens) around the given screens. */
async function renderRoutes(children: RouteObject[], path: string) {
  const [{ element, errorElement, HydrateFallback }] = appRoutes(makeQueryClient()) as [RouteObject]
  const router = createMemoryRouter([{ element, errorElement, HydrateFallback, children }], { initialEntries: [path] })
  await act(
    async () =>
      void render(
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>,
      ),
  )
  return { router, go: (to: string) => act(async () => void (await router.navigate(to))) }
}

describe('lazy routes (the real table, loaded on demand)', () => {
  it('every screen of the table is a lazy route: none is drawn by an element the entry holds', () => {
    const screens = allRoutes(appRoutes(makeQueryClient())).filter((r) => r.path && !r.children && r.handle)
    const eager = screens.filter(
      (r) => !r.lazy && !['Navigate', 'RedirectKeep', 'AppCatchAll', 'NotFoundRoute'].includes((r.element as { type?: { name?: string } }).type?.name ?? ''),
    )
    expect(eager.map((r) => r.path)).toEqual([])
    expect(screens.filter((r) => typeof r.lazy === 'function').length).toBeGreaterThan(20)
  })

  it('the first page shows a loading status while its code loads, then the screen', async () => {
    mockApi({})
    const { lazy, settle } = heldScreen('The screen')
    await renderRoutes([{ path: '/app/login/', lazy }], '/app/login/')
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
    const { router } = await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/', lazy: next.lazy },
      ],
      '/app/a/',
    )
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    let going: Promise<void> | undefined
    await act(async () => {
      going = router.navigate('/app/b/')
    })
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
    await act(async () => {
      next.settle().resolve()
      await going
    })
    expect(await screen.findByText('The next screen')).toBeInTheDocument()
    expect(screen.queryByText('The first screen')).not.toBeInTheDocument()
  })

  it('a screen whose chunk fails to load shows the error screen with a reload', async () => {
    mockApi({})
    allowChunkErrorsOnConsole()
    let attempts = 0
    const flaky = () => {
      attempts += 1
      return Promise.reject(new TypeError(CHUNK_ERROR))
    }
    const { go } = await renderRoutes(
      [
        { path: '/app/login/', lazy: flaky },
        { path: '/app/other/', element: <p>Elsewhere</p> },
      ],
      '/app/login/',
    )
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/app/nuitrack/dashboard/')
    expect(attempts).toBe(1)

    // leaving clears the error
    await go('/app/other/')
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument()
  })

  it('a screen whose chunk fails during a navigation shows the error screen after one attempt', async () => {
    mockApi({})
    allowChunkErrorsOnConsole()
    let attempts = 0
    const broken = () => {
      attempts += 1
      return Promise.reject(new TypeError(CHUNK_ERROR))
    }
    const { go } = await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/', lazy: broken },
      ],
      '/app/a/',
    )
    await go('/app/b/')
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument()
    expect(attempts).toBe(1)
  })

  it('a navigation asks for the data of the screen it opens while that screen’s code is still loading', async () => {
    mockApi({})
    const next = heldScreen('The next screen')
    const loader = vi.fn(() => null)
    const { router } = await renderRoutes(
      [
        { path: '/app/a/', element: <p>The first screen</p> },
        { path: '/app/b/:id/', lazy: next.lazy, loader },
      ],
      '/app/a/',
    )
    expect(loader).not.toHaveBeenCalled()
    let going: Promise<void> | undefined
    await act(async () => {
      going = router.navigate('/app/b/7/')
    })
    expect(screen.getByText('The first screen')).toBeInTheDocument()
    expect(loader).toHaveBeenCalledTimes(1)
    expect((loader.mock.calls[0] as unknown as [{ params: unknown }])[0].params).toEqual({ id: '7' })
    await act(async () => {
      next.settle().resolve()
      await going
    })
    expect(await screen.findByText('The next screen')).toBeInTheDocument()
    expect(loader).toHaveBeenCalledTimes(1)
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
    const { go } = await renderRoutes(
      [
        { path: '/app/one/', lazy: async () => ({ element: <Counter kind="one" /> }) },
        { path: '/app/two/', lazy: async () => ({ element: <Counter kind="two" /> }) },
      ],
      '/app/one/',
    )
    await act(async () => (await screen.findByRole('button', { name: 'one 0' })).click())
    await go('/app/two/')
    expect(await screen.findByRole('button', { name: 'two 1' })).toBeInTheDocument()
  })
})
