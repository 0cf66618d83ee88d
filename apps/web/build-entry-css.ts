import type { Plugin } from 'vite'
import { ENTRY_CSS_ATTRIBUTE } from './src/app/entry-css-attribute.ts'

const STYLESHEET = /<link rel="stylesheet" crossorigin href="([^"]+\.css)">/g

/**
 * index.html's entry stylesheets as `preload` links instead of render-blocking ones. Nothing on the
 * page needs them before the app's first render: until then it shows the boot screen, whose styles
 * are inline. A blocking stylesheet held even that screen back until the CSS had arrived, a round
 * trip or more on a slow link; now the boot screen shows as the HTML does, the CSS downloads at the
 * same priority as before, and app/entry-styles.ts makes the links stylesheets and holds the first
 * render until they have loaded, so no screen draws unstyled.
 */
export function rewriteEntryStylesheets(html: string): string {
  let found = 0
  const out = html.replace(STYLESHEET, (_link, href: string) => {
    found += 1
    return `<link rel="preload" as="style" crossorigin href="${href}" ${ENTRY_CSS_ATTRIBUTE}>`
  })
  // Vite writes the entry's CSS this way today; if it stops, the build says so instead of shipping blocking CSS again
  if (found === 0) throw new Error('build-entry-css: index.html has no entry stylesheet link to rewrite')
  return out
}

export function nonBlockingEntryCss(): Plugin {
  return {
    name: 'portal-non-blocking-entry-css',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: rewriteEntryStylesheets },
  }
}
