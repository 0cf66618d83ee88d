import '@testing-library/jest-dom/vitest'
import { afterEach, beforeEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { errorStore } from '../lib/error-store.ts'
import { mockApi, takeUnexpectedCalls } from './utils.tsx'

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

// a console.error during a test is a failure: React warnings included
let errors: unknown[][] = []
beforeEach(() => {
  errors = []
  // no route is known until the test declares it: any call fails the test
  takeUnexpectedCalls()
  mockApi({})
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args)
  })
})
afterEach(() => {
  cleanup()
  // the error modal's store is a module singleton: a modal left open must not reach the next test
  errorStore.close()
  // what a test's session remembered (the first steps, a remembered path) must not reach the next test
  sessionStorage.clear()
  vi.restoreAllMocks()
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]!.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  })
  const unexpected = takeUnexpectedCalls()
  if (unexpected.length) throw new Error(`fetch met URLs the test does not know:\n${unexpected.join('\n')}`)
  if (errors.length) throw new Error(`console.error was called: ${errors.map((e) => e.map(String).join(' ')).join('\n')}`)
})
