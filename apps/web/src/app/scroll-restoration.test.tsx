import { act, render } from '@testing-library/react'
import { MemoryRouter, useNavigate, useRoutes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useScrollRestoration } from './scroll-restoration.ts'

let go: ReturnType<typeof useNavigate> | undefined
function Pages() {
  useScrollRestoration()
  go = useNavigate()
  return useRoutes([
    { path: '/list/', element: <p>The list</p> },
    { path: '/item/', element: <p id="details">An item</p> },
  ])
}

/** The visitor scrolls the window to `y`. */
function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
  window.dispatchEvent(new Event('scroll'))
}

const navigate = (to: string | number) => act(async () => void (await (typeof to === 'number' ? go!(to) : go!(to))))

describe('scroll restoration', () => {
  let scrolled: ReturnType<typeof vi.fn>
  beforeEach(() => {
    scrolled = vi.fn()
    window.scrollTo = scrolled as unknown as typeof window.scrollTo
  })
  afterEach(() => scrollTo(0))

  it('a new page opens at its top, and back returns to where the page was left', async () => {
    render(
      <MemoryRouter initialEntries={['/list/']}>
        <Pages />
      </MemoryRouter>,
    )
    scrollTo(1200)
    await navigate('/item/')
    expect(scrolled).toHaveBeenLastCalledWith(0, 0)
    scrollTo(300)
    await navigate(-1)
    expect(scrolled).toHaveBeenLastCalledWith(0, 1200)
    await navigate(1)
    expect(scrolled).toHaveBeenLastCalledWith(0, 300)
  })

  it('a #hash opens the page at the element it names', async () => {
    const intoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView')
    render(
      <MemoryRouter initialEntries={['/list/']}>
        <Pages />
      </MemoryRouter>,
    )
    scrolled.mockClear()
    await navigate('/item/#details')
    expect(intoView).toHaveBeenCalledTimes(1)
    expect(intoView.mock.instances[0]).toHaveProperty('id', 'details')
    expect(scrolled).not.toHaveBeenCalled()
  })

  it('the browser leaves the scrolling to the app, and positions outlive a reload in the tab’s session', () => {
    // jsdom has no scroll restoration of its own; a browser's starts at auto
    Object.defineProperty(history, 'scrollRestoration', { value: 'auto', writable: true, configurable: true })
    const view = render(
      <MemoryRouter initialEntries={['/list/']}>
        <Pages />
      </MemoryRouter>,
    )
    expect(history.scrollRestoration).toBe('manual')
    scrollTo(640)
    window.dispatchEvent(new Event('pagehide'))
    expect(Object.values(JSON.parse(sessionStorage.getItem('portal-scroll') ?? '{}') as object)).toContain(640)
    view.unmount()
    expect(history.scrollRestoration).toBe('auto')
  })

  it('after a reload the page returns to the position the tab’s session kept for it', async () => {
    sessionStorage.setItem('portal-scroll', JSON.stringify({ default: 480 }))
    // a fresh module, as after a reload: the positions are read from the session once
    vi.resetModules()
    const fresh = await import('./scroll-restoration.ts')
    function Reloaded() {
      fresh.useScrollRestoration()
      return <p>The list</p>
    }
    render(
      <MemoryRouter initialEntries={['/list/']}>
        <Reloaded />
      </MemoryRouter>,
    )
    expect(scrolled).toHaveBeenLastCalledWith(0, 480)
  })
})
