import { ENTRY_CSS_ATTRIBUTE } from './entry-css-attribute.ts'

/**
 * The entry's styles, which index.html preloads without blocking the boot screen (build-entry-css.ts):
 * each marked link becomes a stylesheet, and the promise settles once every one has loaded (from the
 * preload, no second request) or failed. main.tsx draws the app after it, so no screen shows unstyled.
 * A failed stylesheet does not hold the app back: it draws, plainer, rather than not at all.
 */
export function applyEntryStyles(doc: Document = document): Promise<void> {
  const links = [...doc.querySelectorAll<HTMLLinkElement>(`link[${ENTRY_CSS_ATTRIBUTE}]`)]
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          // a preload's own load event may still be queued as the link changes: only a parsed sheet counts
          link.addEventListener('load', () => {
            if (link.sheet) resolve()
          })
          link.addEventListener('error', () => resolve(), { once: true })
          link.removeAttribute(ENTRY_CSS_ATTRIBUTE)
          link.rel = 'stylesheet'
        }),
    ),
  ).then(() => undefined)
}
