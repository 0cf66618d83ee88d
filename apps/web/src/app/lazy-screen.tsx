import { use, type ReactNode } from 'react'

/** A screen whose code is a chunk of its own: the element that draws it, and a way to start fetching it early. */
export interface LazyScreen {
  element: ReactNode
  /** Starts fetching the screen's code (once, and again after a failure). The router calls it as a path matches. */
  preload: () => Promise<unknown>
}

/** A load that says how it went, so a screen whose code is in draws in the same render. */
type TrackedLoad = Promise<unknown> & {
  status?: 'pending' | 'fulfilled' | 'rejected'
  value?: unknown
  reason?: unknown
  /** A screen has waited on it with `use`: from then on it is read with `use`, as React requires of a render it replays. */
  awaited?: boolean
}

function tracked(load: Promise<unknown>): TrackedLoad {
  const p: TrackedLoad = load
  p.status = 'pending'
  // block bodies: answering `p` itself from a handler would adopt its rejection, unhandled
  p.then(
    (value) => {
      Object.assign(p, { status: 'fulfilled', value })
    },
    (reason: unknown) => {
      Object.assign(p, { status: 'rejected', reason })
    },
  )
  return p
}

interface ScreenState {
  loading: TrackedLoad | undefined
  preload: () => TrackedLoad
  render: (module: never) => ReactNode
}

/**
 * Every lazy screen is this one component, drawn with its own state: two routes that draw the same
 * screen (the staff form's two kinds, the plans and the builder) keep it mounted as the path changes
 * between them, with its state and focus, as React Router's lazy routes did. It reads the load under
 * way, failed or not: retrying here would suspend again at every failure and never show the error;
 * the next navigation to the path preloads it afresh.
 */
function Screen({ of }: { of: ScreenState }) {
  const load = of.loading ?? of.preload()
  // settled before any screen waited on it: drawn at once without `use`, which React's test `act`
  // counts as pending work even for a settled promise
  if (!load.awaited) {
    if (load.status === 'fulfilled') return of.render(load.value as never)
    if (load.status === 'rejected') throw load.reason
    load.awaited = true
  }
  // `use`, not a thrown promise: in a navigation (a transition) React waits for the code and draws the
  // screen in place, where a thrown promise commits the fallback and holds the screen back for up to
  // 300 ms after its code is in (a dashboard's first load measured 440 ms against 200)
  return of.render(use(load as Promise<unknown>) as never)
}

/**
 * The screen that `render` makes from the module `load` answers, fetched when first drawn or
 * preloaded. Until its code is here the screen suspends: the first page shows the router's loading
 * screen, and a navigation (a transition) keeps the page it leaves on view. Once loaded it draws at
 * once. A chunk that fails to load throws to the router's error boundary, and is fetched anew when a
 * path next matches the screen.
 */
export function lazyScreen<M>(load: () => Promise<M>, render: (module: M) => ReactNode): LazyScreen {
  const state: ScreenState = {
    loading: undefined,
    render: render as (module: never) => ReactNode,
    preload: () => {
      if (!state.loading || state.loading.status === 'rejected') state.loading = tracked(load())
      return state.loading
    },
  }
  return { element: <Screen of={state} />, preload: state.preload }
}
