import '@testing-library/jest-dom/vitest'
import { afterEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { notifications } from '@mantine/notifications'
import { contactSales } from '../lib/contact-sales.ts'
import { errorStore } from '../lib/error-store.ts'
import { fillBalanceStore } from '../lib/fill-balance.ts'
import { hiddenActions } from '../lib/hidden-actions.ts'

// every screen is a lazy screen: a test's first visit to one transforms and imports its module, slower than
// the one second findBy… waits by default
configure({ asyncUtilTimeout: 5000 })

// Mantine reads these browser APIs that jsdom lacks
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  // the tests' browser asks for reduced motion: Mantine's dialogs and menus open and close without
  // timed transitions, whose frames could otherwise land in the middle of another act()
  value: (query: string) => ({
    matches: query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
})
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver
window.HTMLElement.prototype.scrollIntoView = () => {}
// Mantine's autosizing textarea listens for web fonts loading
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() })
window.scrollTo = (() => {}) as typeof window.scrollTo

// runs before setup.ts's checks (after-hooks run in reverse order): what unmounting logs is checked too
afterEach(() => {
  cleanup()
  // the app-wide modals' stores are module singletons: a modal left open must not reach the next test.
  // They close after the unmount, outside any act(): a test file's own afterEach that returned
  // act()'s thenable kept React's act scope open while Testing Library switched the act environment
  // off, and the next test's first update then met "not configured to support act"
  errorStore.close()
  contactSales.close()
  fillBalanceStore.close()
  // so are the actions the server said are unavailable
  hiddenActions.clear()
  // the notifications shown (Mantine's store is a module singleton too)
  notifications.clean()
  // what a test's session remembered (the first steps, a remembered path), and what the browser
  // keeps for good (a seen tour, a basket draft), must not reach the next test
  sessionStorage.clear()
  localStorage.clear()
  // the browser APIs a test stood in for (requestIdleCallback)
  vi.unstubAllGlobals()
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]!.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  })
})
