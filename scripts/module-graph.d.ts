import type { ESLint } from 'eslint'

export interface ModuleImport {
  from: string
  to: string
  file: string
  target: string
}
export function landing(modulesDir: string, file: string, specifier: string): { module: string; path: string } | null
export function moduleOf(modulesDir: string, file: string): string | null
export function moduleImports(modulesDir: string): ModuleImport[]
export function findCycles(edges: { from: string; to: string }[]): string[][]
export const moduleGraphPlugin: ESLint.Plugin
