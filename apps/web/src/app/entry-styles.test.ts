// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { applyEntryStyles } from './entry-styles.ts'

const preload = (href: string) => {
  const link = document.createElement('link')
  link.rel = 'preload'
  link.as = 'style'
  link.href = href
  link.setAttribute('data-entry-css', '')
  document.head.append(link)
  return link
}
/** What the browser does as a stylesheet has loaded: the link has its sheet, then its load event. */
const loaded = (link: HTMLLinkElement) => {
  Object.defineProperty(link, 'sheet', { configurable: true, value: {} })
  link.dispatchEvent(new Event('load'))
}
const settled = async (p: Promise<void>) => {
  let done = false
  void p.then(() => (done = true))
  await new Promise((r) => setTimeout(r, 0))
  return done
}

afterEach(() => document.head.querySelectorAll('link').forEach((l) => l.remove()))

describe('applyEntryStyles', () => {
  it('makes each preloaded entry style a stylesheet and settles once all have loaded', async () => {
    const a = preload('/app/assets/index-1.css')
    const b = preload('/app/assets/index-2.css')
    const applied = applyEntryStyles()
    expect([a.rel, b.rel]).toEqual(['stylesheet', 'stylesheet'])
    expect(a.hasAttribute('data-entry-css')).toBe(false)
    expect(await settled(applied)).toBe(false)
    // the preload's own load event, arriving after the switch and before the sheet exists, is not enough
    b.dispatchEvent(new Event('load'))
    expect(await settled(applied)).toBe(false)
    loaded(a)
    expect(await settled(applied)).toBe(false)
    loaded(b)
    expect(await settled(applied)).toBe(true)
  })

  it('lets the app draw when a stylesheet fails, and at once when the page has none (the dev server)', async () => {
    const a = preload('/app/assets/index-1.css')
    const applied = applyEntryStyles()
    a.dispatchEvent(new Event('error'))
    expect(await settled(applied)).toBe(true)
    expect(await settled(applyEntryStyles())).toBe(true)
  })
})
