import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { AppProviders } from './providers.tsx'
import { appRoutes } from './router.tsx'
import { mockApi } from '../test/utils.tsx'

function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return router
}

/** Every route of the table, depth first. */
const allRoutes = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...allRoutes(r.children ?? [])])

describe('lazy routes (the real table, loaded on demand)', () => {
  it('every screen of the table is a lazy route: none is drawn by an element the entry holds', () => {
    const screens = allRoutes(appRoutes).filter((r) => r.path && !r.children && r.handle)
    const eager = screens.filter(
      (r) => r.element && !['Navigate', 'RedirectKeep', 'AppCatchAll', 'NotFoundRoute'].includes((r.element as { type?: { name?: string } }).type?.name ?? ''),
    )
    expect(eager.map((r) => r.path)).toEqual([])
    expect(screens.filter((r) => r.lazy).length).toBeGreaterThan(20)
  })

  it('the sign-in page shows a loading status while its code loads, then the form', async () => {
    mockApi({})
    renderRoutes(appRoutes, '/app/login/')
    const status = screen.getByRole('status')
    expect(status).toHaveAttribute('aria-busy', 'true')
    expect(status).toHaveTextContent('Loading…')
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('a screen whose chunk fails to load shows the error screen with a reload, not a blank page', async () => {
    mockApi({})
    const { element, errorElement, hydrateFallbackElement } = appRoutes[0]!
    const failing: RouteObject[] = [
      {
        element,
        errorElement,
        hydrateFallbackElement,
        children: [{ path: '/app/login/', lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) }],
      },
    ]
    renderRoutes(failing, '/app/login/')
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/app/nuitrack/dashboard/')
  })
})
