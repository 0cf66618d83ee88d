import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { resources } from './i18n.ts'

/**
 * Every visible UI text goes through i18next: a JSX text node or a visible string attribute
 * (label, title, placeholder, description, aria-label, alt) holding words is a text that no
 * translation can reach. Brand and product names stay as they are.
 */
const SRC = join(import.meta.dirname, '..')
const ROOTS = ['app', 'features', 'components'].map((d) => join(SRC, d))
/** Calls whose text arguments reach the screen. */
const SHOWING_CALLS = new Set(['notifySuccess', 'notifications.show', 'errorStore.show', 'setError'])
/** `g.setError(…)` is a setError too. */
const shows = (callee: string) => SHOWING_CALLS.has(callee) || SHOWING_CALLS.has(callee.split('.').pop()!)
const VISIBLE_ATTRIBUTES = new Set(['label', 'title', 'placeholder', 'description', 'aria-label', 'alt'])
/** The brand: the logo reads "3DiVi Portal" in every language. */
const UNTRANSLATED = new Set(['3DiVi', 'Portal'])

const tsxFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return tsxFiles(path)
    return e.name.endsWith('.tsx') && !e.name.includes('.test.') ? [path] : []
  })

/** A message key or error code of the catalogue is translated where it is shown (the error dialog, the form hook). */
const catalogue = resources.en.translation as Record<string, string>
const hasWords = (text: string) => /[A-Za-z]{2,}/.test(text) && !UNTRANSLATED.has(text.trim()) && !(/^[a-z0-9_.:]+$/.test(text) && text in catalogue)

/** The untranslated texts of one file, each as `line: text`. */
export function untranslatedTexts(source: string, fileName = 'file.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const found: string[] = []
  const report = (node: ts.Node, text: string) => {
    found.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text.trim()}`)
  }
  /** The texts an expression can evaluate to: literals in result positions, never inside a call such as t(). */
  const results = (e: ts.Expression): void => {
    if (ts.isParenthesizedExpression(e)) return results(e.expression)
    if (ts.isConditionalExpression(e)) return (results(e.whenTrue), results(e.whenFalse))
    if (
      ts.isBinaryExpression(e) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)
    )
      return results(e.right)
    if (ts.isStringLiteralLike(e) && hasWords(e.text)) return report(e, e.text)
    if (ts.isTemplateExpression(e)) {
      const parts = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ')
      if (hasWords(parts)) report(e, parts)
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text)
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) results(node.expression)
    if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer
      if (ts.isStringLiteral(init)) {
        if (hasWords(init.text)) report(node, init.text)
      } else if (ts.isJsxExpression(init) && init.expression) results(init.expression)
    }
    // a notice or a field error is shown too: its text argument, or the message and title it is given
    if (ts.isCallExpression(node) && shows(node.expression.getText(file))) {
      for (const arg of node.arguments) {
        if (ts.isObjectLiteralExpression(arg)) {
          for (const p of arg.properties) if (ts.isPropertyAssignment(p) && ['message', 'title'].includes(p.name.getText(file))) results(p.initializer)
        } else results(arg)
      }
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

  it('finds texts an expression renders: a branch, a fallback, a template; a compared value is no text', () => {
    const src = [
      `const A = () => <Modal title={open ? 'Close it' : t('Open')}>`,
      `{kind === 'online_key' && <b>{name ?? 'No name'}</b>}`,
      `<Text>{\`\${n} days left\`}</Text><Text>{t(\`\${n} ok\`)}</Text></Modal>`,
    ].join('\n')
    expect(untranslatedTexts(src)).toEqual(['1: Close it', '2: No name', '3: days left'])
  })

  it('finds the texts given to a notice, the error dialog or a field error', () => {
    const src = [
      `notifySuccess('Saved', t('Fine'))`,
      `errorStore.show({ title: GENERIC.error_title, message: 'Not found', kind: 'error' })`,
      `notifications.show({ color: 'green', message: t('Ok') }); setError(big ? 'Too long' : null)`,
    ].join('\n')
    expect(untranslatedTexts(src)).toEqual(['1: Saved', '2: Not found', '3: Too long'])
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

  it('no <Trans> sentence names a tag after an HTML void element (its parser would drop the words from the link)', () => {
    // html-parse-stringify, which <Trans> uses, treats <link>, <img>, <br> … as empty: "<link>group key</link>"
    // renders an empty link beside the words
    const voidTag = /<(area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)>/
    const offenders = ROOTS.flatMap(tsxFiles).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/defaults="([^"]*)"/g)].filter((m) => voidTag.test(m[1]!)).map((m) => `${relative(SRC, path)}: ${m[1]}`),
    )
    expect(offenders).toEqual([])
  })
})
