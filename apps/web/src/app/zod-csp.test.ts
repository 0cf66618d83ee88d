import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import './zod-csp.ts'

describe('zod-csp', () => {
  it("turns off Zod's compiled parsers (no eval under the CSP), also when Zod loaded first", () => {
    expect(z.config().jitless).toBe(true)
  })
})
