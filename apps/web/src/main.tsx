import './app/zod-csp.ts'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import './app/styles/sign-in.css'
import './app/styles/mantine-theme.css'
import './app/theme.css'
import { applyEntryStyles } from './app/entry-styles.ts'
import { Providers, createQueryClient } from './app/providers.tsx'
import { AppRoutes, startRoute } from './app/router.tsx'

/**
 * The next task: the start goes in steps, each a task of its own, so that no one of them holds the
 * main thread long (Lighthouse's blocking time counts each task's time over 50 ms, under a 4×
 * slow-down: the modules' evaluation, the first page's start and React's root were one task of
 * 50 to 80 ms here, as much as 300 ms on its phone).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * How long the first render waits for the first page's data once the styles are in: with
 * the answers in the cache the page draws whole in one render (no list that shows its loading state
 * and draws again a moment later, which cost a second render of the shell and the page, about 30 ms
 * here, 120 ms on Lighthouse's phone); a slow API gets the page drawn with its loading states after it.
 */
const FIRST_DATA_WAIT_MS = 1000
const within = (ms: number, promise: Promise<unknown>) => Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms))])

const client = createQueryClient()
// the entry's styles load meanwhile; the first render waits for them (index.html shows the boot
// screen until then), so nothing draws unstyled
const styled = applyEntryStyles()

async function start() {
  // the first page's code and data: the page's HTML has already asked for them (modulepreload and
  // preload links), and these requests take those answers
  await nextTask()
  const firstPage = startRoute(client, window.location.pathname)
  await nextTask()
  const root = createRoot(document.getElementById('root')!)
  await styled
  await within(FIRST_DATA_WAIT_MS, firstPage)
  // a transition: React draws it in slices and leaves the main thread free between them (Lighthouse's
  // blocking time on a 1,000-license dashboard 300 → about 200 ms under its 4× slow-down)
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers client={client}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    ),
  )
}
void start()
