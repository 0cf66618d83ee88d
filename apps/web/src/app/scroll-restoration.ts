import { useEffect, useLayoutEffect } from 'react'
import { useLocation, useNavigationType } from 'react-router'

const STORAGE_KEY = 'portal-scroll'

/** Where each history entry was scrolled to, by its location key; kept in the tab's session across reloads. */
let positions: Record<string, number> | null = null

function stored(): Record<string, number> {
  if (positions) return positions
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}')
    positions = typeof saved === 'object' && saved !== null ? (saved as Record<string, number>) : {}
  } catch {
    positions = {}
  }
  return positions
}

function save() {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored()))
  } catch {
    // a full or blocked storage only loses the positions across a reload
  }
}

/**
 * The browser's scroll behaviour for a single-page app: a new page opens at its top (or at the element
 * its #hash names), and back and forward return to where that page was left. The browser's own
 * restoration is off: it would scroll before the screen it restores has drawn.
 */
export function useScrollRestoration() {
  const { key, hash } = useLocation()
  const action = useNavigationType()

  useEffect(() => {
    if (!('scrollRestoration' in history)) return
    history.scrollRestoration = 'manual'
    window.addEventListener('pagehide', save)
    return () => {
      window.removeEventListener('pagehide', save)
      history.scrollRestoration = 'auto'
    }
  }, [])

  // a layout effect: the listener of the page left goes in the same commit as the next page arrives,
  // before that page's scroll to its top could be noted as the old page's position
  useLayoutEffect(() => {
    // noted as the visitor scrolls: by the time a navigation commits, the next screen has replaced
    // the page and the old position is gone
    const note = () => {
      stored()[key] = window.scrollY
    }
    window.addEventListener('scroll', note, { passive: true })
    return () => window.removeEventListener('scroll', note)
  }, [key])

  useLayoutEffect(() => {
    const saved = stored()[key]
    if (action === 'POP' && saved !== undefined) {
      window.scrollTo(0, saved)
      return
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null
    if (target) target.scrollIntoView()
    else window.scrollTo(0, 0)
  }, [key, hash, action])
}
