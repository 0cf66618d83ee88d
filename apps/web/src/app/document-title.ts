import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { Params } from 'react-router'

export const PORTAL_TITLE = '3DiVi Portal'
export const NOT_FOUND_TITLE = 'Page not found'

type TitleOf = string | ((params: Params) => string | null)
export interface TitleHandle {
  title: TitleOf
}

/** A route's `handle` naming its screen; a function may answer null to leave it to a parent route. */
export const titled = (title: TitleOf): TitleHandle => ({ title })

const isTitled = (handle: unknown): handle is TitleHandle => typeof handle === 'object' && handle !== null && 'title' in handle

/** The screen's name as the route table gives it: the deepest matched route that names one. */
export function screenTitle(matches: readonly { handle: unknown; params: Params }[]): string | null {
  for (const match of [...matches].reverse()) {
    if (!isTitled(match.handle)) continue
    const title = typeof match.handle.title === 'function' ? match.handle.title(match.params) : match.handle.title
    if (title) return title
  }
  return null
}

export const documentTitle = (screen: string | null) => (screen ? `${screen} · ${PORTAL_TITLE}` : PORTAL_TITLE)

/**
 * Gives every screen its own document title (what a tab, the history list and a screen reader
 * announce on navigation), from the routes the path matches.
 */
export function useDocumentTitle(matches: readonly { handle: unknown; params: Params }[]) {
  const { t } = useTranslation()
  const screen = screenTitle(matches)
  const title = documentTitle(screen && t(screen))
  useEffect(() => {
    document.title = title
  }, [title])
}
