import { afterEach, beforeEach, vi } from 'vitest'
import { mockApi, takeUnexpectedCalls } from './mock-api.ts'

// every web test, in the DOM or not: a call no test declared, or a console.error (React warnings
// included), fails the test
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
  vi.restoreAllMocks()
  const unexpected = takeUnexpectedCalls()
  if (unexpected.length) throw new Error(`fetch met URLs the test does not know:\n${unexpected.join('\n')}`)
  if (errors.length) throw new Error(`console.error was called: ${errors.map((e) => e.map(String).join(' ')).join('\n')}`)
})
