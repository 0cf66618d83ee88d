import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Every visible UI text goes through i18next: a JSX text node or a visible string attribute
 * (label, title, placeholder, description, aria-label, alt) holding words is a text that no
 * translation can reach. Brand and product names stay as they are.
 */
const SRC = join(import.meta.dirname, '..')
const ROOTS = ['app', 'features', 'components'].map((d) => join(SRC, d))
const VISIBLE_ATTRIBUTES = new Set(['label', 'title', 'placeholder', 'description', 'aria-label', 'alt'])
/** The brand: the logo reads "3DiVi Portal" in every language. */
const UNTRANSLATED = new Set(['3DiVi', 'Portal'])

const tsxFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return tsxFiles(path)
    return e.name.endsWith('.tsx') && !e.name.includes('.test.') ? [path] : []
  })

const hasWords = (text: string) => /[A-Za-z]{2,}/.test(text) && !UNTRANSLATED.has(text.trim())

/** The untranslated texts of one file, each as `line: text`. */
export function untranslatedTexts(source: string, fileName = 'file.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const found: string[] = []
  const report = (node: ts.Node, text: string) => found.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text.trim()}`)
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text)
    if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer
      const literal = ts.isStringLiteral(init)
        ? init
        : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
          ? init.expression
          : null
      if (literal && hasWords(literal.text)) report(node, literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** Files not converted yet; each entry leaves this list once its texts go through `t()`. */
const NOT_YET_CONVERTED: string[] = []

describe('UI texts through i18next', () => {
  it('finds a bare JSX text and a bare label, and passes t() calls and brand names', () => {
    const src = `const A = () => <Stack label="Your name" title={t('Ok')}><Text>Hello there</Text><Text>{t('Fine')}</Text><b>3DiVi</b>{' · '}</Stack>`
    expect(untranslatedTexts(src)).toEqual(['1: Your name', '1: Hello there'])
  })

  it('no component renders a text that i18next cannot translate', () => {
    const offenders = ROOTS.flatMap(tsxFiles)
      .map((path) => ({ file: relative(SRC, path), texts: untranslatedTexts(readFileSync(path, 'utf8'), path) }))
      .filter((f) => f.texts.length && !NOT_YET_CONVERTED.includes(f.file))
      .map((f) => `${f.file}\n  ${f.texts.join('\n  ')}`)
    expect(offenders).toEqual([])
  })

  it('lists only files that still hold untranslated texts', () => {
    const stale = NOT_YET_CONVERTED.filter((file) => !untranslatedTexts(readFileSync(join(SRC, file), 'utf8')).length)
    expect(stale).toEqual([])
  })
})
