import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Mantine's CSS comes per component (sign-in.css with the entry, signed-in.css with the shell's chunk)
 * instead of the whole styles.css: a component used without its file would show unstyled.
 */
const SRC = join(import.meta.dirname, '../..')
const MANTINE_STYLES = join(SRC, '../../../node_modules/@mantine/core/styles')
const imported = (file: string) =>
  new Set([...readFileSync(join(import.meta.dirname, file), 'utf8').matchAll(/@mantine\/core\/styles\/(\w+)\.layer\.css/g)].map((m) => m[1]!))
const SIGN_IN = imported('sign-in.css')
const SIGNED_IN = imported('signed-in.css')

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sources(path)
    return /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [path] : []
  })

/** The Mantine components a file imports, or whose classes it names (`mantine-Table-td`), that have a stylesheet of their own. */
function styledComponents(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const imports = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim().replace(/^type\s+/, ''))
      .filter((n) => /^[A-Z]/.test(n)),
  )
  const classes = [...text.matchAll(/\bmantine-([A-Z]\w*)-\w/g)].map((m) => m[1]!)
  return [...new Set([...imports, ...classes])].filter((n) => existsSync(join(MANTINE_STYLES, `${n}.layer.css`)))
}

/** What the entry and the sign-in family render before the shell's chunk (and its styles) is there. */
const SIGNED_OUT = (file: string) => {
  const path = relative(SRC, file)
  return /^features\/(auth|errors)\//.test(path) || /^app\/[^/]+\.tsx$/.test(path)
}

describe("Mantine's styles per component", () => {
  it('names files that exist', () => {
    for (const name of [...SIGN_IN, ...SIGNED_IN]) expect(existsSync(join(MANTINE_STYLES, `${name}.layer.css`)), name).toBe(true)
    expect(SIGN_IN.size).toBeGreaterThan(10)
  })

  it('every component the app imports has its styles loaded', () => {
    const missing = sources(SRC).flatMap((file) =>
      styledComponents(file)
        .filter((n) => !SIGN_IN.has(n) && !SIGNED_IN.has(n))
        .map((n) => `${relative(SRC, file)}: ${n}`),
    )
    expect(missing).toEqual([])
  })

  it('the signed-out screens find their components styled without the shell', () => {
    const missing = sources(SRC)
      .filter(SIGNED_OUT)
      .flatMap((file) =>
        styledComponents(file)
          .filter((n) => !SIGN_IN.has(n))
          .map((n) => `${relative(SRC, file)}: ${n}`),
      )
    expect(missing).toEqual([])
  })

  it("lists the components in the order of Mantine's styles.css: a component's rules come after those of the one it builds on", () => {
    // in one cascade layer the later rule wins: with Anchor before Text, Text's `color` won and every link was body-coloured
    const whole = readFileSync(join(MANTINE_STYLES, '../styles.css'), 'utf8')
    const placeOf = (name: string) => {
      const first = /^[^\s@][^{]*\{/m.exec(readFileSync(join(MANTINE_STYLES, `${name}.css`), 'utf8'))![0]
      return whole.indexOf(first)
    }
    const globals = new Set(['baseline', 'default-css-variables', 'global'])
    for (const file of ['sign-in.css', 'signed-in.css']) {
      const names = [...imported(file)].filter((n) => !globals.has(n))
      const places = names.map(placeOf)
      expect(places.every((p) => p >= 0)).toBe(true)
      expect(names, file).toEqual([...names].sort((a, b) => placeOf(a) - placeOf(b)))
    }
    expect(placeOf('Text')).toBeLessThan(placeOf('Anchor'))
  })
})
