import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as domain from './index.ts'
import type { EmailError, GroupSizeError, PasswordError, checkRepeat, checkTitle } from './index.ts'
import { allMessages, messageFor } from './messages.ts'

/**
 * A message key without text reaches the user as itself: the API answered
 * `"error":"license_title_max_length_error"` and the web showed the key. Every key a schema, a rule
 * or an error can produce must have English text in the catalogue the API and i18next both read.
 */
const catalogue = allMessages()
const hasText = (key: string) => {
  if (/^max_length_error:\d+$/.test(key)) return messageFor(key) !== key
  return typeof catalogue[key] === 'string' && catalogue[key].trim() !== '' && catalogue[key] !== key
}

interface ZodLike {
  _zod: { def: Record<string, unknown> & { error?: (issue?: unknown) => unknown; checks?: ZodLike[] } }
}
const isZod = (v: unknown): v is ZodLike => typeof v === 'object' && v !== null && '_zod' in v

const customMessage = (def: ZodLike['_zod']['def']): string | undefined => {
  try {
    const m = def.error?.()
    return typeof m === 'string' ? m : undefined
  } catch {
    return undefined
  }
}

/** Every custom message a schema declares: on the schema, on each check, in every inner schema. */
function schemaMessages(schema: ZodLike, out = new Map<string, string>(), path = '', seen = new Set<unknown>()) {
  if (seen.has(schema)) return out
  seen.add(schema)
  const def = schema._zod.def
  const own = customMessage(def)
  if (own) out.set(own, path)
  for (const check of def.checks ?? []) {
    const m = customMessage(check._zod.def)
    if (m) out.set(m, path)
  }
  for (const [k, v] of Object.entries(def)) {
    if (k === 'checks') continue
    const children = isZod(v) ? [v] : Array.isArray(v) ? v.filter(isZod) : v && typeof v === 'object' ? Object.values(v).filter(isZod) : []
    for (const child of children) schemaMessages(child, out, `${path}.${k}`, seen)
  }
  return out
}

const root = join(import.meta.dirname, '../../..')
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test' ? [] : sourceFiles(p)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : []
  })
}

describe('message keys have text', () => {
  it('every custom message of every exported schema', () => {
    const missing: string[] = []
    let count = 0
    for (const [name, value] of Object.entries(domain)) {
      if (!isZod(value)) continue
      for (const [key, path] of schemaMessages(value)) {
        count++
        if (!hasText(key)) missing.push(`${name}${path}: ${key}`)
      }
    }
    expect(count).toBeGreaterThan(20)
    expect(missing).toEqual([])
  })

  it('every key a rule function returns (the list is exhaustive by type)', () => {
    type RuleKey = EmailError | PasswordError | GroupSizeError | NonNullable<ReturnType<typeof checkTitle> | ReturnType<typeof checkRepeat>>
    const keys: Record<RuleKey, true> = {
      email_empty_error: true,
      email_validation_error: true,
      email_max_length_error: true,
      password_empty_error: true,
      password_min_length_error: true,
      password_max_length_error: true,
      password_not_available_symbol_error: true,
      password_uppercase_error: true,
      password_lowercase_error: true,
      password_digit_or_symbol_error: true,
      password_all_types_error: true,
      password_match_error: true,
      field_empty_error: true,
      license_title_max_length_error: true,
      group_size_is_zero: true,
      group_min_size_error: true,
      license_in_group_limit_error: true,
      group_size_number_error: true,
    }
    expect(Object.keys(keys).filter((k) => !hasText(k))).toEqual([])
  })

  it('every `*_error` key and every issue message written in the domain, server and web sources', () => {
    const missing: string[] = []
    const files = ['packages/domain/src', 'apps/server/src', 'apps/web/src'].flatMap((d) => sourceFiles(join(root, d)))
    expect(files.length).toBeGreaterThan(50)
    for (const file of files) {
      const src = readFileSync(file, 'utf8')
      const keys = [
        ...[...src.matchAll(/['"`]([a-z][a-z0-9]*(?:_[a-z0-9]+)*_error)['"`]/g)].map((m) => m[1]!),
        // ctx.addIssue({ message: 'key' }) and refine(..., { message: 'key' }) that do not end in _error
        ...[...src.matchAll(/message:\s*'([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'/g)].map((m) => m[1]!),
      ]
      for (const key of new Set(keys)) if (!hasText(key)) missing.push(`${relative(root, file)}: ${key}`)
    }
    expect(missing).toEqual([])
  })

  it('every error of the catalogue, by code', () => {
    for (const e of Object.values(domain.ERRORS)) expect(hasText(e.code), e.code).toBe(true)
  })

  it('a key without text is caught (the check is not vacuous)', () => {
    expect(hasText('license_title_max_length_error_that_does_not_exist')).toBe(false)
    expect(hasText('max_length_error:30')).toBe(true)
  })
})
