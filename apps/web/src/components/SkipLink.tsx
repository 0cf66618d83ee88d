import { useTranslation } from 'react-i18next'
import classes from './SkipLink.module.css'

/** The id of the element a page's skip link moves to: the page's main area. */
export const MAIN_ID = 'main-content'

/**
 * The page's first stop for the keyboard: "Skip to the main content", shown while it has the focus.
 * It moves the focus to the main area (which takes it with tabIndex -1) without a navigation, so the
 * router sees no new address.
 */
export function SkipLink() {
  const { t } = useTranslation()
  return (
    <a
      href={`#${MAIN_ID}`}
      className={classes.skip}
      onClick={(event) => {
        const main = document.getElementById(MAIN_ID)
        if (!main) return
        event.preventDefault()
        main.focus()
        main.scrollIntoView()
      }}
    >
      {t('Skip to the main content')}
    </a>
  )
}
