import { use, type ReactNode } from 'react'

/** A screen whose code is a chunk of its own: the element that draws it, and a way to start fetching it early. */
export interface LazyScreen {
  element: ReactNode
  /** Starts fetching the screen's code (once, and again after a failure). The router calls it as a path matches. */
  preload: () => Promise<unknown>
}

/**
 * The screen that `render` makes from the module `load` answers, fetched when first drawn or
 * preloaded. Until its code is here the screen suspends: the first page shows the router's loading
 * screen, and a navigation (a transition) keeps the page it leaves on view. Once loaded it draws at
 * once. A chunk that fails to load throws to the router's error boundary, and is fetched anew when a
 * path next matches the screen.
 */
export function lazyScreen<M>(load: () => Promise<M>, render: (module: M) => ReactNode): LazyScreen {
  let loaded: M | undefined
  let loading: Promise<M> | undefined
  let failed = false
  const preload = () => {
    if (!loading || failed) {
      failed = false
      loading = load().then(
        (module) => (loaded = module),
        (error: unknown) => {
          failed = true
          throw error
        },
      )
    }
    return loading
  }
  // the screen reads the load under way, failed or not: retrying here would suspend again at every
  // failure and never show the error; a new navigation to the path preloads it afresh
  function Screen() {
    return render(loaded ?? use(loading ?? preload()))
  }
  return { element: <Screen />, preload }
}
