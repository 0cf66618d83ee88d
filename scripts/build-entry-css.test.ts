import { describe, expect, it } from 'vitest'
import { rewriteEntryStylesheets } from '../apps/web/build-entry-css.ts'

describe('rewriteEntryStylesheets (apps/web/build-entry-css.ts)', () => {
  it("makes Vite's entry stylesheet links preloads the app applies, leaving the rest of the page alone", () => {
    const html = [
      '<head>',
      '<script type="module" crossorigin src="/app/assets/index-A1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/app/assets/react-B2.js">',
      '<link rel="stylesheet" crossorigin href="/app/assets/index-C3.css">',
      '<style>.boot{display:flex}</style>',
      '</head>',
    ].join('\n')
    const out = rewriteEntryStylesheets(html)
    expect(out).toContain('<link rel="preload" as="style" crossorigin href="/app/assets/index-C3.css" data-entry-css>')
    expect(out).not.toMatch(/rel="stylesheet"/)
    expect(out.replace(/<link rel="preload" as="style"[^>]*>/, '')).toBe(html.replace(/<link rel="stylesheet"[^>]*>/, ''))
  })

  it('fails the build when Vite writes no such link, rather than ship blocking styles unnoticed', () => {
    expect(() => rewriteEntryStylesheets('<head><link rel="stylesheet" href="/other.css"></head>')).toThrow(/no entry stylesheet/)
  })
})
