import { readFileSync } from 'node:fs'
import type { Alias, UserConfig } from 'vite'
import { describe, expect, it } from 'vitest'
import config from '../apps/web/vite.config.ts'

const resolve = (command: 'build' | 'serve') =>
  (typeof config === 'function' ? config({ command, mode: command === 'build' ? 'production' : 'development' }) : config) as UserConfig
const aliases = (command: 'build' | 'serve') => (resolve(command).resolve?.alias ?? []) as Alias[]

describe("apps/web/vite.config.ts: React Router's build", () => {
  it('builds with dist/production, whose development warnings are off', () => {
    const alias = aliases('build').find((a) => a.find instanceof RegExp && a.find.test('react-router'))
    expect(alias?.replacement).toMatch(/react-router[\\/]dist[\\/]production[\\/]index\.mjs$/)
    expect((alias!.find as RegExp).test('react-router/dom')).toBe(false)
    // index.mjs re-exports chunks: the flag sits in one of them
    const index = readFileSync(alias!.replacement, 'utf8')
    const chunks = [...index.matchAll(/from "\.\/(chunk-[A-Z0-9]+\.mjs)"/g)].map((m) => readFileSync(alias!.replacement.replace('index.mjs', m[1]!), 'utf8'))
    const flags = chunks.flatMap((code) => code.match(/var ENABLE_DEV_WARNINGS = \w+;/g) ?? [])
    expect(flags).toEqual(['var ENABLE_DEV_WARNINGS = false;'])
  })

  it('serves the development build (and its warnings) to the dev server', () => {
    expect(aliases('serve')).toEqual([])
  })
})

describe('apps/web/vite.config.ts: react-remove-scroll only with the modals', () => {
  const plugin = resolve('build')
    .plugins!.flat()
    .find((p) => p && typeof p === 'object' && 'name' in p && p.name === 'portal-remove-scroll-for-app-shell') as unknown as {
    resolveId: (source: string, importer?: string) => string | null
  }
  const mantine = '/repo/node_modules/@mantine/core/esm/components'

  it("resolves the AppShell bars' import to the class names alone", () => {
    for (const bar of ['Header', 'Footer', 'Aside'])
      expect(plugin.resolveId('react-remove-scroll', `${mantine}/AppShell/AppShell${bar}/AppShell${bar}.mjs`)).toMatch(
        /src[\\/]lib[\\/]remove-scroll-class-names\.ts$/,
      )
  })

  it('leaves every other import of it, and every other import of those modules, to the library', () => {
    expect(plugin.resolveId('react-remove-scroll', `${mantine}/ModalBase/ModalBase.mjs`)).toBeNull()
    expect(plugin.resolveId('react-remove-scroll', `${mantine}/AppShell/AppShellNavbar/AppShellNavbar.mjs`)).toBeNull()
    expect(plugin.resolveId('react', `${mantine}/AppShell/AppShellHeader/AppShellHeader.mjs`)).toBeNull()
    expect(plugin.resolveId('react-remove-scroll')).toBeNull()
  })
})
